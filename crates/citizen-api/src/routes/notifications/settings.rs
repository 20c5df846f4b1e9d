//! `GET/PUT /me/notifications/settings` (spec 2.8).

use actix_web::web;
use domain::notifications::Interval;
use serde::{Deserialize, Deserializer, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;

use crate::routes::responses::OwnJsonErrors;
use crate::routes::AppState;
use crate::store::notifications::Settings;

/// How often notifications are delivered over push and e-mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum IntervalName {
    Daily,
    Weekly,
    Monthly,
}

impl From<IntervalName> for Interval {
    fn from(i: IntervalName) -> Self {
        match i {
            IntervalName::Daily => Self::Daily,
            IntervalName::Weekly => Self::Weekly,
            IntervalName::Monthly => Self::Monthly,
        }
    }
}

impl From<Interval> for IntervalName {
    fn from(i: Interval) -> Self {
        match i {
            Interval::Daily => Self::Daily,
            Interval::Weekly => Self::Weekly,
            Interval::Monthly => Self::Monthly,
        }
    }
}

/// `{enabled, interval}`, both required.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    /// Whether notifications are delivered over the subscribed channels (push, e-mail); the
    /// feed is always written.
    pub enabled: bool,
    /// `null`: each notification as it happens; else one digest per interval, at the configured
    /// local time of the city.
    #[serde(deserialize_with = "required_nullable")]
    #[schema(required = true)]
    pub interval: Option<IntervalName>,
}

/// A field that must be present but may be null (serde treats a missing `Option` as null unless
/// the field has its own deserializer).
fn required_nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<IntervalName>, D::Error> {
    Option::<IntervalName>::deserialize(d)
}

impl From<Settings> for SettingsBody {
    fn from(s: Settings) -> Self {
        Self {
            enabled: s.enabled,
            interval: s.interval.map(IntervalName::from),
        }
    }
}

/// The caller's notification settings.
///
/// Never set: `{"enabled": true, "interval": null}`.
#[utoipa::path(
    get, path = "/me/notifications/settings", tag = "notifications", operation_id = "getNotificationSettings",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The settings", body = SettingsBody),
        Unauthorized,
    )
)]
pub async fn get(state: web::Data<AppState>, auth: Auth) -> Result<Json<SettingsBody>, ApiError> {
    let settings = state.stores.notifications.settings(&auth.0.subject).await?;
    Ok(Json(settings.into()))
}

/// Set the caller's notification settings.
#[utoipa::path(
    put, path = "/me/notifications/settings", tag = "notifications", operation_id = "putNotificationSettings",
    request_body = SettingsBody, security(("bearer" = [])),
    responses(
        (status = 200, description = "The settings as stored", body = SettingsBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (a field missing, an unknown interval, another property)", body = service_kit::ErrorBody),
        Unauthorized,
        OwnJsonErrors,
    )
)]
#[tracing::instrument(name = "put_notification_settings", skip_all)]
pub async fn put(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<SettingsBody>,
) -> Result<Json<SettingsBody>, ApiError> {
    let settings = Settings {
        enabled: body.0.enabled,
        interval: body.0.interval.map(Interval::from),
    };
    state
        .stores
        .notifications
        .put_settings(
            &auth.0.subject,
            settings,
            auth.0.locale.as_deref(),
            state.clock.now(),
        )
        .await?;
    Ok(Json(settings.into()))
}
