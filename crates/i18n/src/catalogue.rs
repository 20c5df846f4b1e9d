//! The Fluent catalogues, embedded in the binary and parsed once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use crate::Locale;

/// The Fluent source of each locale, in [`Locale::ALL`] order.
const SOURCES: [&str; Locale::ALL.len()] = [
    include_str!("../locales/en.ftl"),
    include_str!("../locales/cs.ftl"),
    include_str!("../locales/uk.ftl"),
];

/// The catalogues built at first use.
static GLOBAL: LazyLock<Catalogues> = LazyLock::new(Catalogues::new);

/// The parsed catalogues of every [`Locale`]; `Send + Sync`, built once (see [`Catalogues::global`]).
pub struct Catalogues {
    bundles: [FluentBundle<FluentResource>; Locale::ALL.len()],
    problems: Vec<String>,
}

/// A rendered text and how it was obtained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The text to show.
    pub text: String,
    /// The catalogue the text comes from: the requested one, or English as the fallback;
    /// `None` when no catalogue could render the message and `text` is the key itself.
    pub locale: Option<Locale>,
    /// What went wrong on the way (a missing message or argument), empty when the requested
    /// catalogue rendered the message cleanly.
    pub problems: Vec<String>,
}

impl Catalogues {
    /// Parses the embedded catalogues. Never panics: syntax errors and duplicate ids are kept in
    /// [`Catalogues::problems`] and the entries that parsed are still used.
    pub fn new() -> Self {
        Self::from_sources(SOURCES)
    }

    /// Catalogues from other Fluent sources, in [`Locale::ALL`] order (for tests and tools; the
    /// services use [`Catalogues::global`]).
    pub fn from_sources(sources: [&str; Locale::ALL.len()]) -> Self {
        let mut problems = Vec::new();
        let bundles = Locale::ALL.map(|locale| {
            let source = sources[locale.index()];
            let langid: LanguageIdentifier = locale.as_str().parse().unwrap_or_else(|err| {
                problems.push(format!("{locale}: bad language identifier: {err}"));
                LanguageIdentifier::default()
            });
            let mut bundle = FluentBundle::new_concurrent(vec![langid]);
            bundle.set_use_isolating(false);
            let resource =
                FluentResource::try_new(source.to_owned()).unwrap_or_else(|(resource, errors)| {
                    problems.extend(errors.iter().map(|e| format!("{locale}.ftl: {e:?}")));
                    resource
                });
            if let Err(errors) = bundle.add_resource(resource) {
                problems.extend(errors.iter().map(|e| format!("{locale}.ftl: {e}")));
            }
            bundle
        });
        Self { bundles, problems }
    }

    /// The catalogues of the process, parsed at first use.
    pub fn global() -> &'static Catalogues {
        &GLOBAL
    }

    /// The Fluent source of a locale's catalogue (`locales/<locale>.ftl`).
    pub fn source(locale: Locale) -> &'static str {
        SOURCES[locale.index()]
    }

    /// Syntax errors and duplicate ids found while parsing; empty for correct catalogues.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The ids of the messages (not terms) of a locale's embedded catalogue.
    pub fn message_ids(locale: Locale) -> BTreeSet<&'static str> {
        crate::ast::variables(Self::source(locale))
            .into_keys()
            .collect()
    }

    /// For each message of a locale's embedded catalogue, the `$variables` it references (in its value,
    /// attributes and selectors).
    pub fn variables(locale: Locale) -> BTreeMap<&'static str, BTreeSet<&'static str>> {
        crate::ast::variables(Self::source(locale))
    }

    /// The text of `message` in `locale`; see [`Catalogues::render_checked`] for the fallbacks.
    pub fn render(&self, locale: Locale, message: &Message) -> String {
        self.render_checked(locale, message).text
    }

    /// The text of `message` in `locale`, falling back to English and then to the key itself
    /// when the message or one of the arguments it references is missing. Never panics.
    ///
    /// Arguments that read as plain numbers (`"4000"`, `"-1.5"`) are passed to Fluent as numbers,
    /// so the catalogues can choose plural forms with them.
    pub fn render_checked(&self, locale: Locale, message: &Message) -> Rendered {
        self.render_id(locale, message.key, &message.args)
    }

    /// The generic text of an error code (Fluent id `error-` + the code's name).
    pub fn error_title(&self, locale: Locale, code: ErrorCode) -> String {
        self.error_title_checked(locale, code).text
    }

    /// [`Catalogues::error_title`] with the fallbacks of [`Catalogues::render_checked`].
    pub fn error_title_checked(&self, locale: Locale, code: ErrorCode) -> Rendered {
        self.render_id(locale, &format!("error-{}", code.as_str()), &[])
    }

    fn render_id(&self, locale: Locale, id: &str, args: &[(&'static str, String)]) -> Rendered {
        let fluent_args = fluent_args(args);
        let mut problems = Vec::new();
        let mut attempts = vec![locale];
        if locale != Locale::En {
            attempts.push(Locale::En);
        }
        for attempt in attempts {
            match self.format(attempt, id, &fluent_args) {
                Ok(text) => {
                    return Rendered {
                        text,
                        locale: Some(attempt),
                        problems,
                    }
                }
                Err(problem) => problems.push(problem),
            }
        }
        Rendered {
            text: id.to_owned(),
            locale: None,
            problems,
        }
    }

    /// The message formatted by one catalogue, or why it could not be.
    fn format(&self, locale: Locale, id: &str, args: &FluentArgs<'_>) -> Result<String, String> {
        let bundle = &self.bundles[locale.index()];
        let pattern = bundle
            .get_message(id)
            .and_then(|message| message.value())
            .ok_or_else(|| format!("{locale}: no message {id:?}"))?;
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(args), &mut errors);
        if errors.is_empty() {
            Ok(text.into_owned())
        } else {
            let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
            Err(format!("{locale}: {id}: {}", errors.join("; ")))
        }
    }
}

impl Default for Catalogues {
    fn default() -> Self {
        Self::new()
    }
}

/// Fluent arguments; a value that is exactly a number's canonical text becomes a number.
fn fluent_args(args: &[(&'static str, String)]) -> FluentArgs<'static> {
    let mut fluent = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        let number = value
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && n.to_string() == *value);
        match number {
            Some(n) => fluent.set(*name, FluentValue::from(n)),
            None => fluent.set(*name, FluentValue::from(value.clone())),
        }
    }
    fluent
}

/// [`Catalogues::render`] with the process's catalogues.
pub fn render(locale: Locale, message: &Message) -> String {
    Catalogues::global().render(locale, message)
}

/// [`Catalogues::error_title`] with the process's catalogues.
pub fn error_title(locale: Locale, code: ErrorCode) -> String {
    Catalogues::global().error_title(locale, code)
}
