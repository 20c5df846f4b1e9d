//! E-mail over SMTP (lettre): a feed entry as a plain-text and an HTML part, with a stable
//! `Message-ID` made of its tag (a repeat after a crash is recognisably the same message) and a
//! one-click unsubscribe link and header (RFC 8058).

use anyhow::Context as _;
use domain::i18n::Message as Text;
use i18n::Locale;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor};
use secrecy::ExposeSecret as _;

use super::EmailSettings;
use crate::store::notifications::EmailSubscription;

/// The longest one e-mail may take, connect included: under the delivery lease's minimum
/// (30 s), so a claim never runs out during a send.
const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// What the mail server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailOutcome {
    Delivered,
    /// A transient refusal or a transport error: try again later.
    Retry(String),
    /// A permanent refusal (5xx) or an address that cannot be written: give up.
    Rejected(String),
}

/// What one e-mail says (the feed entry's texts, in the recipient's language).
#[derive(Debug, Clone, Copy)]
pub struct MailTexts<'a> {
    pub tag: &'a str,
    pub title: &'a str,
    pub body: Option<&'a str>,
    pub url: Option<&'a str>,
}

/// Sends e-mails over the configured SMTP server.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    unsubscribe_base: url::Url,
    id_host: String,
    /// The language of the footer when the subscription has none.
    default_locale: Locale,
}

impl Mailer {
    /// The mailer of `settings`; `None` without `smtp_url`. A bad URL, sender or unsubscribe
    /// URL is an error naming the key. `default_locale` is the footer's language for a
    /// subscription without one.
    pub fn new(settings: &EmailSettings, default_locale: Locale) -> anyhow::Result<Option<Self>> {
        let Some(smtp_url) = &settings.smtp_url else {
            return Ok(None);
        };
        let url = smtp_url.expose_secret();
        let parsed = url::Url::parse(url)
            .map_err(|err| anyhow::anyhow!("notifications.email.smtp_url is not a URL: {err}"))?;
        if !matches!(parsed.scheme(), "smtp" | "smtps") {
            anyhow::bail!("notifications.email.smtp_url must be smtp:// or smtps://");
        }
        let tls = parsed
            .query_pairs()
            .any(|(k, v)| k == "tls" && v == "required");
        let credentials = !parsed.username().is_empty() || parsed.password().is_some();
        if parsed.scheme() == "smtp" && credentials && !tls {
            anyhow::bail!(
                "notifications.email.smtp_url: credentials over plain smtp:// would travel \
                 unencrypted; use smtps:// or add ?tls=required (STARTTLS)"
            );
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|err| anyhow::anyhow!("notifications.email.smtp_url: {err}"))?
            .timeout(Some(SEND_TIMEOUT))
            .build();
        let from: Mailbox = settings
            .from
            .parse()
            .with_context(|| format!("notifications.email.from {:?}", settings.from))?;
        let unsubscribe_base = url::Url::parse(&settings.unsubscribe_base_url)
            .context("notifications.email.unsubscribe_base_url is not a URL")?;
        let id_host = unsubscribe_base
            .host_str()
            .context("notifications.email.unsubscribe_base_url has no host")?
            .to_owned();
        Ok(Some(Self {
            transport,
            from,
            unsubscribe_base,
            id_host,
            default_locale,
        }))
    }

    /// The message's identity: `<tag@host of the unsubscribe URL>`.
    pub fn message_id(&self, tag: &str) -> String {
        format!("<{tag}@{}>", self.id_host)
    }

    /// The one-click unsubscribe URL of a subscription.
    pub fn unsubscribe_url(&self, token: &str) -> String {
        let mut url = self.unsubscribe_base.clone();
        url.query_pairs_mut().clear().append_pair("token", token);
        url.to_string()
    }

    /// Builds the e-mail of `texts` for `sub`.
    pub fn message(
        &self,
        sub: &EmailSubscription,
        texts: MailTexts<'_>,
    ) -> anyhow::Result<Message> {
        let to: Mailbox = sub.email.parse().context("stored e-mail address")?;
        let unsubscribe = self.unsubscribe_url(&sub.unsubscribe_token);
        let mut plain = texts.title.to_owned();
        let mut html = format!("<h1>{}</h1>", escape(texts.title));
        if let Some(body) = texts.body {
            plain.push_str(&format!("\n\n{body}"));
            html.push_str(&format!("<p>{}</p>", escape(body)));
        }
        if let Some(url) = texts.url {
            plain.push_str(&format!("\n\n{url}"));
            html.push_str(&format!("<p><a href=\"{0}\">{0}</a></p>", escape(url)));
        }
        let locale = i18n::negotiate(sub.locale.as_deref(), self.default_locale);
        let (plain_footer, html_footer) = footer(locale, &unsubscribe);
        plain.push_str(&plain_footer);
        html.push_str(&html_footer);
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(texts.title)
            .message_id(Some(self.message_id(texts.tag)))
            .header(ListUnsubscribe(format!("<{unsubscribe}>")))
            .header(ListUnsubscribePost)
            .multipart(MultiPart::alternative_plain_html(plain, html))
            .context("building the e-mail")
    }

    /// Sends the e-mail of `texts` to `sub`.
    pub async fn send(&self, sub: &EmailSubscription, texts: MailTexts<'_>) -> MailOutcome {
        let message = match self.message(sub, texts) {
            Ok(message) => message,
            Err(err) => return MailOutcome::Rejected(format!("{err:#}")),
        };
        // lettre's own time-out covers the connect only: a server that goes silent in the
        // middle of the conversation would hold this send, and the worker's round, for ever.
        match tokio::time::timeout(SEND_TIMEOUT, self.transport.send(message)).await {
            Ok(Ok(_)) => MailOutcome::Delivered,
            Ok(Err(err)) if err.is_permanent() => MailOutcome::Rejected(err.to_string()),
            Ok(Err(err)) => MailOutcome::Retry(err.to_string()),
            Err(_) => MailOutcome::Retry(format!(
                "no answer from the mail server within {} s",
                SEND_TIMEOUT.as_secs()
            )),
        }
    }
}

/// The unsubscribe line of an e-mail in `locale`: plain text and HTML.
fn footer(locale: Locale, unsubscribe: &str) -> (String, String) {
    let label = i18n::render(locale, &Text::new("email-footer-unsubscribe"));
    (
        format!("\n\n--\n{label}: {unsubscribe}\n"),
        format!(
            "<hr><p><a href=\"{}\">{}</a></p>",
            escape(unsubscribe),
            escape(&label)
        ),
    )
}

/// Text for HTML: `&`, `<`, `>`, `"` and `'` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `List-Unsubscribe: <https://…?token=…>`.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unsubscribe_line_is_in_the_subscribers_language() {
        let url = "https://city.example/u?token=a&b";
        let (plain, html) = footer(Locale::Cs, url);
        assert_eq!(plain, format!("\n\n--\nOdhlásit odběr: {url}\n"));
        assert_eq!(
            html,
            "<hr><p><a href=\"https://city.example/u?token=a&amp;b\">Odhlásit odběr</a></p>"
        );
        let (plain, html) = footer(Locale::En, url);
        assert!(plain.contains("Unsubscribe: https://"), "{plain}");
        assert!(html.contains(">Unsubscribe</a>"), "{html}");
        let (plain, html) = footer(Locale::Uk, url);
        assert_eq!(plain, format!("\n\n--\nВідписатися: {url}\n"));
        assert!(html.contains(">Відписатися</a>"), "{html}");
    }
}
