//! Reply templates: texts an officer starts a statement from, per report category, in the city's
//! languages (`/admin/reply-templates`, docs/officers-guide.md "Reply templates").
//!
//! The rules of a template as officers write it: a title of 1 to [`TITLE_MAX_CHARS`] characters
//! (trimmed), texts in at least one of the languages `cs`, `en` and `uk` and in no other, each as
//! long as a statement may be ([`TEXT_MAX_CHARS`]), an optional status change it fits
//! ([`AppliesOn`]), and at most [`PER_CATEGORY_MAX`] templates per category. Lengths count
//! characters (Unicode scalar values), as every limit of the reports does.

use crate::i18n::Message;
use crate::reports::STATEMENT_MAX_CHARS;

/// Most characters of a template's title (after trimming).
pub const TITLE_MAX_CHARS: usize = 200;
/// Most characters of a template's text in one language: a statement's limit, so a template
/// always makes a statement that can be sent.
pub const TEXT_MAX_CHARS: usize = STATEMENT_MAX_CHARS;
/// Most templates of one category.
pub const PER_CATEGORY_MAX: u64 = 100;

/// A language of the city's texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    Cs,
    En,
    Uk,
}

impl Language {
    /// Every language, in the order the answers list them.
    pub const ALL: [Language; 3] = [Language::Cs, Language::En, Language::Uk];

    /// The key of the language in `texts` (ISO 639-1).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Cs => "cs",
            Self::En => "en",
            Self::Uk => "uk",
        }
    }

    /// The language of a key; `None` for any other text (case matters: `CS` is none).
    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == key)
    }
}

/// A template's texts: at least one language has one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts {
    pub cs: Option<String>,
    pub en: Option<String>,
    pub uk: Option<String>,
}

impl Texts {
    /// The text of `language`.
    pub fn get(&self, language: Language) -> Option<&str> {
        match language {
            Language::Cs => self.cs.as_deref(),
            Language::En => self.en.as_deref(),
            Language::Uk => self.uk.as_deref(),
        }
    }

    fn slot(&mut self, language: Language) -> &mut Option<String> {
        match language {
            Language::Cs => &mut self.cs,
            Language::En => &mut self.en,
            Language::Uk => &mut self.uk,
        }
    }

    /// The languages with a text and their texts, in [`Language::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Language, &str)> {
        Language::ALL
            .into_iter()
            .filter_map(|l| self.get(l).map(|text| (l, text)))
    }

    /// Whether no language has a text (never so for a checked template).
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// The status change a template is meant for, which the console pre-fills it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppliesOn {
    Accepted,
    Resolved,
}

impl AppliesOn {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Resolved => "resolved",
        }
    }

    /// `accepted` or `resolved`; anything else is refused.
    pub fn parse(value: &str) -> Result<Self, TemplateRefusal> {
        match value {
            "accepted" => Ok(Self::Accepted),
            "resolved" => Ok(Self::Resolved),
            other => Err(TemplateRefusal::AppliesOnInvalid(other.to_owned())),
        }
    }
}

/// Why a template is refused; the API answers 400 `VALIDATION_ERROR` with [`Self::message`],
/// but [`TemplateRefusal::TooMany`], which is 409 `TOO_MANY_REPLY_TEMPLATES`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateRefusal {
    #[error("the title has {chars} characters after trimming, 1 to {TITLE_MAX_CHARS} are allowed")]
    Title { chars: usize },
    #[error("no text in any language")]
    NoText,
    #[error("{0:?} is not one of the languages cs, en, uk")]
    UnknownLanguage(String),
    #[error("the {0:?} text is blank")]
    TextEmpty(Language),
    #[error("the {language:?} text has {chars} characters, at most {TEXT_MAX_CHARS} are allowed")]
    TextTooLong { language: Language, chars: usize },
    #[error("applies_on {0:?} is not accepted, resolved or null")]
    AppliesOnInvalid(String),
    #[error("the category has {PER_CATEGORY_MAX} templates already")]
    TooMany,
}

impl TemplateRefusal {
    /// The catalogue text.
    pub fn message(&self) -> Message {
        match self {
            Self::Title { chars } => Message::new("reply-template-title-invalid")
                .arg("chars", chars)
                .arg("max", TITLE_MAX_CHARS),
            Self::NoText => Message::new("reply-template-texts-empty"),
            Self::UnknownLanguage(key) => {
                Message::new("reply-template-language-unknown").arg("value", format!("{key:?}"))
            }
            Self::TextEmpty(language) => {
                Message::new("reply-template-text-empty").arg("language", language.as_str())
            }
            Self::TextTooLong { language, chars } => Message::new("reply-template-text-too-long")
                .arg("language", language.as_str())
                .arg("chars", chars)
                .arg("max", TEXT_MAX_CHARS),
            Self::AppliesOnInvalid(value) => {
                Message::new("reply-template-applies-on-invalid").arg("value", format!("{value:?}"))
            }
            Self::TooMany => Message::new("reply-templates-too-many").arg("max", PER_CATEGORY_MAX),
        }
    }
}

/// A title: 1 to [`TITLE_MAX_CHARS`] characters after trimming; kept trimmed.
pub fn check_title(title: &str) -> Result<String, TemplateRefusal> {
    let title = title.trim();
    let chars = title.chars().count();
    if chars == 0 || chars > TITLE_MAX_CHARS {
        return Err(TemplateRefusal::Title { chars });
    }
    Ok(title.to_owned())
}

/// The texts by language key: only `cs`, `en` and `uk`, at least one, each not blank and at most
/// [`TEXT_MAX_CHARS`] characters; kept as written (a statement is, too). The first refusal in
/// the keys' order is answered.
pub fn check_texts<'a>(
    texts: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Texts, TemplateRefusal> {
    let mut out = Texts::default();
    for (key, text) in texts {
        let language =
            Language::parse(key).ok_or_else(|| TemplateRefusal::UnknownLanguage(key.to_owned()))?;
        if text.trim().is_empty() {
            return Err(TemplateRefusal::TextEmpty(language));
        }
        let chars = text.chars().count();
        if chars > TEXT_MAX_CHARS {
            return Err(TemplateRefusal::TextTooLong { language, chars });
        }
        *out.slot(language) = Some(text.to_owned());
    }
    if out.is_empty() {
        return Err(TemplateRefusal::NoText);
    }
    Ok(out)
}

/// `applies_on`: null (`None`) or `accepted` / `resolved`.
pub fn check_applies_on(value: Option<&str>) -> Result<Option<AppliesOn>, TemplateRefusal> {
    value.map(AppliesOn::parse).transpose()
}

/// Whether a category that holds `existing` templates takes one more.
pub fn check_room(existing: u64) -> Result<(), TemplateRefusal> {
    if existing >= PER_CATEGORY_MAX {
        return Err(TemplateRefusal::TooMany);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
