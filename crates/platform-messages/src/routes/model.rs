//! The JSON shapes of the API and their conversion from and to the stored model.

use chrono::{DateTime, Utc};
use domain::messages::{self as rules, Audience, Kind, MessageRuleError, Targeting, Window};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, IntoResponses, ToSchema};
use uuid::Uuid;

use crate::store::{MessageFields, StoredMessage};

/// How prominent a message is; the front end picks colour and icon from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Info,
    Maintenance,
    Outage,
}

impl From<MessageKind> for Kind {
    fn from(kind: MessageKind) -> Self {
        match kind {
            MessageKind::Info => Kind::Info,
            MessageKind::Maintenance => Kind::Maintenance,
            MessageKind::Outage => Kind::Outage,
        }
    }
}

impl From<Kind> for MessageKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::Info => MessageKind::Info,
            Kind::Maintenance => MessageKind::Maintenance,
            Kind::Outage => MessageKind::Outage,
        }
    }
}

/// Who a message is for: `everyone` (also anonymous callers), `signed_in` (every signed-in user)
/// or `roles` (signed-in users with at least one of `roles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AudienceName {
    Everyone,
    SignedIn,
    Roles,
}

impl AudienceName {
    fn as_str(self) -> &'static str {
        match self {
            AudienceName::Everyone => "everyone",
            AudienceName::SignedIn => "signed_in",
            AudienceName::Roles => "roles",
        }
    }

    fn of(audience: &Audience) -> Self {
        match audience {
            Audience::Everyone => AudienceName::Everyone,
            Audience::SignedIn => AudienceName::SignedIn,
            Audience::Roles(_) => AudienceName::Roles,
        }
    }
}

/// A message as every endpoint returns it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Message {
    pub id: Uuid,
    /// The client application the message belongs to.
    #[schema(example = "citizen-web")]
    pub client_id: String,
    /// Short plain-text heading (at most 200 characters).
    pub title: Option<String>,
    /// The message in Markdown (at most 4000 characters; links only http, https, mailto, tel or
    /// relative; no raw HTML).
    #[schema(example = "Payments are unavailable tonight. [Details](https://status.example.org)")]
    pub text: String,
    pub kind: MessageKind,
    pub audience: AudienceName,
    /// The targeted roles (non-empty exactly when `audience` is `roles`).
    pub roles: Vec<String>,
    /// Whether the user may hide the message.
    pub dismissible: bool,
    /// First instant the message is shown (inclusive); null: already.
    pub valid_from: Option<DateTime<Utc>>,
    /// First instant the message is no longer shown (exclusive); null: until deleted.
    pub valid_to: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<StoredMessage> for Message {
    fn from(m: StoredMessage) -> Self {
        let MessageFields {
            title,
            text,
            kind,
            dismissible,
            targeting,
        } = m.fields;
        Self {
            id: m.id,
            client_id: m.client_id,
            title,
            text,
            kind: kind.into(),
            audience: AudienceName::of(&targeting.audience),
            roles: targeting.audience.roles().to_vec(),
            dismissible,
            valid_from: targeting.window.from(),
            valid_to: targeting.window.to(),
            created_at: m.created_at,
            updated_at: m.updated_at,
        }
    }
}

/// The messages of a client application as a user sees them now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MessagesResponse {
    /// Messages for this caller that are inside their window now, newest first.
    pub messages: Vec<Message>,
    /// Fingerprint of the client's whole message state; the same for every audience and the
    /// same as in the MQTT notice. Compare for inequality only.
    #[schema(example = "12.3")]
    pub version: String,
    /// Next instant a window of this client starts or ends (the version changes then), or null.
    pub next_change_at: Option<DateTime<Utc>>,
}

/// All stored messages of a client (also those outside their window), for operators.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClientMessages {
    pub client_id: String,
    /// Every stored message of the client, newest first.
    pub messages: Vec<Message>,
    #[schema(example = "12.3")]
    pub version: String,
    pub next_change_at: Option<DateTime<Utc>>,
}

fn default_dismissible() -> bool {
    true
}

fn default_audience() -> AudienceName {
    AudienceName::Everyone
}

fn default_kind() -> MessageKind {
    MessageKind::Info
}

/// A message to create, or the full replacement of one (PUT).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MessageInput {
    /// Plain-text heading, 1 to 200 characters.
    #[schema(max_length = 200)]
    pub title: Option<String>,
    /// Markdown, 1 to 4000 characters; refused with 400 `UNSAFE_MESSAGE_TEXT` when it holds raw
    /// HTML or a link, image or reference whose destination is not http, https, mailto, tel or
    /// relative.
    #[schema(min_length = 1, max_length = 4000)]
    pub text: String,
    /// Default `info`.
    #[serde(default = "default_kind")]
    pub kind: MessageKind,
    /// Default `everyone`.
    #[serde(default = "default_audience")]
    pub audience: AudienceName,
    /// Required (1 to 20 names, no spaces) with audience `roles`; must be empty otherwise.
    #[serde(default)]
    #[schema(max_items = 20)]
    pub roles: Vec<String>,
    /// Default true.
    #[serde(default = "default_dismissible")]
    pub dismissible: bool,
    /// Inclusive start; must be earlier than `valid_to`.
    pub valid_from: Option<DateTime<Utc>>,
    /// Exclusive end; must be later than `valid_from`.
    pub valid_to: Option<DateTime<Utc>>,
}

/// A partial change (PATCH): absent fields stay, `null` clears `title`, `valid_from` or
/// `valid_to`. The merged message is validated like a full one.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MessagePatch {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub title: Option<Option<String>>,
    #[schema(min_length = 1, max_length = 4000)]
    pub text: Option<String>,
    pub kind: Option<MessageKind>,
    pub audience: Option<AudienceName>,
    pub roles: Option<Vec<String>>,
    pub dismissible: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<DateTime<Utc>>)]
    pub valid_from: Option<Option<DateTime<Utc>>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<DateTime<Utc>>)]
    pub valid_to: Option<Option<DateTime<Utc>>>,
}

/// A field that is present (possibly `null`) becomes `Some(..)`; an absent one stays `None`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

impl MessagePatch {
    /// The full input after applying this patch to `current`.
    pub fn apply(self, current: MessageInput) -> MessageInput {
        // A patch that changes the audience away from `roles` without naming roles drops them.
        let roles = match (self.roles, self.audience) {
            (Some(roles), _) => roles,
            (None, Some(a)) if a != AudienceName::Roles => Vec::new(),
            (None, _) => current.roles,
        };
        MessageInput {
            title: self.title.unwrap_or(current.title),
            text: self.text.unwrap_or(current.text),
            kind: self.kind.unwrap_or(current.kind),
            audience: self.audience.unwrap_or(current.audience),
            roles,
            dismissible: self.dismissible.unwrap_or(current.dismissible),
            valid_from: self.valid_from.unwrap_or(current.valid_from),
            valid_to: self.valid_to.unwrap_or(current.valid_to),
        }
    }
}

impl From<Message> for MessageInput {
    fn from(m: Message) -> Self {
        Self {
            title: m.title,
            text: m.text,
            kind: m.kind,
            audience: m.audience,
            roles: m.roles,
            dismissible: m.dismissible,
            valid_from: m.valid_from,
            valid_to: m.valid_to,
        }
    }
}

/// Truncates to microseconds, the precision both databases store.
fn micros(t: Option<DateTime<Utc>>) -> Option<DateTime<Utc>> {
    use chrono::SubsecRound as _;
    t.map(|t| t.trunc_subsecs(6))
}

impl MessageInput {
    /// Validates everything and returns the fields to store.
    pub fn validate(self) -> Result<MessageFields, MessageRuleError> {
        rules::validate_title(self.title.as_deref())?;
        rules::validate_text(&self.text)?;
        let audience = Audience::from_parts(self.audience.as_str(), self.roles)?;
        let window = Window::new(micros(self.valid_from), micros(self.valid_to))?;
        Ok(MessageFields {
            title: self.title,
            text: self.text,
            kind: self.kind.into(),
            dismissible: self.dismissible,
            targeting: Targeting { audience, window },
        })
    }
}

/// Query of `GET /me/messages`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MeQuery {
    /// The client application; defaults to the token's client claim (`azp`, configurable with
    /// `auth.client_id_claim`). 400 when neither is there.
    pub client_id: Option<String>,
}

/// The path of one message in the operator routes.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct MessagePath {
    /// Client application id
    #[param(
        min_length = 1,
        max_length = 64,
        pattern = "^[A-Za-z0-9][A-Za-z0-9._-]*$"
    )]
    pub client_id: String,
    /// Message id
    pub message_id: Uuid,
}

/// 404 `MESSAGE_NOT_FOUND`: the client has no message with the path's id.
#[derive(IntoResponses)]
#[response(status = 404, description = "`MESSAGE_NOT_FOUND`")]
pub struct MessageNotFound(pub service_kit::ErrorBody);

/// 400 of a route that stores a whole message (`PUT`, and `PATCH` after merging).
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "`VALIDATION_ERROR`, `UNSAFE_MESSAGE_TEXT`, `INVALID_JSON`"
)]
pub struct InvalidMessage(pub service_kit::ErrorBody);
