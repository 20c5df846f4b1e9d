//! Localized texts of the citizen-services platform: the supported locales and the choice of
//! the answer language from an `Accept-Language` header. No I/O.

#![warn(missing_docs)]

mod locale;
mod negotiate;

pub use locale::{Locale, UnsupportedLocale};
pub use negotiate::negotiate;
