//! Localized texts of the citizen-services platform.
//!
//! The domain and the services describe a user-facing text as a [`domain::i18n::Message`]
//! (a catalogue key with arguments); this crate renders it in English, Czech or Ukrainian from
//! the [Project Fluent](https://projectfluent.org) catalogues in `locales/*.ftl`, which are
//! embedded in the binary: nothing here performs I/O.
//!
//! * [`negotiate`] picks the [`Locale`] from an `Accept-Language` header;
//! * [`render`] gives the text of a message, [`error_title`] the generic text of an
//!   [`ErrorCode`](domain::error_code::ErrorCode) (Fluent id `error-<NAME>`);
//! * a missing message or argument never panics: the text falls back to English, then to the
//!   key itself ([`Catalogues::render_checked`] tells which happened).
//!
//! Catalogue conventions: one message per key, the same ids and the same `$variables` in every
//! locale (the tests check both, and that every `Message::new("…")` key in the workspace's
//! sources has an entry). Numeric arguments are passed to Fluent as numbers, so plural forms can
//! be chosen with `{ $n -> [one] … [few] … *[other] … }`. Unicode isolation marks are off.

#![warn(missing_docs)]

mod ast;
mod catalogue;
mod locale;
mod negotiate;

pub use catalogue::{error_title, render, Catalogues, Rendered};
pub use locale::{Locale, UnsupportedLocale};
pub use negotiate::negotiate;
