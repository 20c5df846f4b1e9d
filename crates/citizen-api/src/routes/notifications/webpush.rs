//! `GET/POST/DELETE /me/notifications/webpush`: the caller's browsers' push subscriptions.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::{Deserialize, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::{IntoParams, ToSchema};

use crate::notify::keys::{check_endpoint, check_keys};
use crate::routes::responses::OwnJsonErrors;
use crate::routes::AppState;
use crate::store::notifications::PushSubscription;

/// `?endpoint=`.
#[derive(Debug, Deserialize, IntoParams)]
pub struct EndpointQuery {
    /// The subscription's endpoint URL.
    pub endpoint: String,
}

/// The keys of a push subscription (as the browser's `PushSubscription.toJSON()` gives them).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key, uncompressed, base64url.
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url.
    pub auth: String,
}

/// `{endpoint, keys}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Subscription {
    /// https URL of an allowed push service.
    pub endpoint: String,
    pub keys: SubscriptionKeys,
}

/// `{subscription}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Subscribed {
    pub subscription: Subscription,
}

/// `{status}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    pub status: bool,
}

/// `{endpoint}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Unsubscribed {
    pub endpoint: String,
}

/// Whether the caller has a push subscription with this endpoint.
#[utoipa::path(
    get, path = "/me/notifications/webpush", tag = "notifications", operation_id = "getWebpushSubscription",
    params(EndpointQuery), security(("bearer" = [])),
    responses(
        (status = 200, description = "Subscribed or not", body = Status),
        (status = 400, description = "`VALIDATION_ERROR`: no endpoint", body = service_kit::ErrorBody),
        Unauthorized,
    )
)]
pub async fn status(
    state: web::Data<AppState>,
    auth: Auth,
    query: Query<EndpointQuery>,
) -> Result<Json<Status>, ApiError> {
    let status = state
        .stores
        .notifications
        .webpush_subscribed(&auth.0.subject, &query.0.endpoint)
        .await?;
    Ok(Json(Status { status }))
}

/// Subscribe a browser to push notifications.
///
/// The endpoint must be https on an allowed push service (`notifications.webpush.allowed_hosts`;
/// by default the browsers' own), else 400 `WEBPUSH_ENDPOINT_NOT_ALLOWED`; the keys must be a
/// P-256 public key and a 16-byte secret (400 `INVALID_WEBPUSH_KEYS`). Pushes are written in
/// the language of the token's `locale` claim. Subscribing an endpoint again replaces it.
#[utoipa::path(
    post, path = "/me/notifications/webpush", tag = "notifications", operation_id = "subscribeWebpush",
    request_body = Subscription, security(("bearer" = [])),
    responses(
        (status = 201, description = "Subscribed", body = Subscribed),
        (status = 400, description = "`WEBPUSH_ENDPOINT_NOT_ALLOWED`, `INVALID_WEBPUSH_KEYS`, `INVALID_JSON`, `VALIDATION_ERROR`", body = service_kit::ErrorBody),
        Unauthorized,
        OwnJsonErrors,
    )
)]
#[tracing::instrument(name = "subscribe_webpush", skip_all)]
pub async fn subscribe(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<Subscription>,
) -> Result<HttpResponse, ApiError> {
    let sub = body.0;
    check_endpoint(&sub.endpoint, &state.notifications.webpush)?;
    check_keys(&sub.keys.p256dh, &sub.keys.auth)?;
    let stored = PushSubscription {
        endpoint: sub.endpoint.clone(),
        p256dh: sub.keys.p256dh.clone(),
        auth: sub.keys.auth.clone(),
        locale: auth.0.locale.clone(),
    };
    super::remember_locale(&state, &auth.0).await?;
    state
        .stores
        .notifications
        .add_webpush(&auth.0.subject, &stored, state.clock.now())
        .await?;
    Ok(HttpResponse::Created().json(Subscribed { subscription: sub }))
}

/// Unsubscribe a browser.
#[utoipa::path(
    delete, path = "/me/notifications/webpush", tag = "notifications", operation_id = "unsubscribeWebpush",
    params(EndpointQuery), security(("bearer" = [])),
    responses(
        (status = 201, description = "Unsubscribed", body = Unsubscribed),
        (status = 400, description = "`VALIDATION_ERROR`: no endpoint", body = service_kit::ErrorBody),
        Unauthorized,
        (status = 404, description = "`WEBPUSH_SUBSCRIPTION_NOT_FOUND`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "unsubscribe_webpush", skip_all)]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    auth: Auth,
    query: Query<EndpointQuery>,
) -> Result<HttpResponse, ApiError> {
    let endpoint = query.0.endpoint;
    let removed = state
        .stores
        .notifications
        .remove_webpush(&auth.0.subject, &endpoint)
        .await?;
    if !removed {
        return Err(ApiError::new(
            ErrorCode::WebpushSubscriptionNotFound,
            Message::new("webpush-subscription-not-found"),
        ));
    }
    Ok(HttpResponse::Created().json(Unsubscribed { endpoint }))
}

/// `{public_key}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicKey {
    /// The service's VAPID public key (an uncompressed P-256 point, base64url): the
    /// `applicationServerKey` a browser subscribes with.
    pub public_key: String,
}

/// The key browsers subscribe to this service's pushes with.
///
/// Public and the same for everyone (cached like the other public reads); 404
/// `WEBPUSH_NOT_CONFIGURED` while `notifications.webpush.vapid_private_key` is not set.
#[utoipa::path(
    get, path = "/notifications/webpush/public-key", tag = "notifications", operation_id = "getWebpushPublicKey",
    responses(
        (status = 200, description = "The VAPID public key", body = PublicKey),
        (status = 404, description = "`WEBPUSH_NOT_CONFIGURED`: the service sends no web push", body = service_kit::ErrorBody),
    )
)]
pub async fn public_key(state: web::Data<AppState>) -> Result<Json<PublicKey>, ApiError> {
    match &state.vapid_public_key {
        Some(key) => Ok(Json(PublicKey {
            public_key: key.clone(),
        })),
        None => Err(ApiError::bare(ErrorCode::WebpushNotConfigured)),
    }
}
