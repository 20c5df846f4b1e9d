//! `GET/POST/DELETE /me/notifications/email`: notifications by e-mail to the token's address.

use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::Serialize;
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;

use super::webpush::Status;
use crate::routes::AppState;
use crate::store::notifications::EmailSubscription;

/// `{email}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EmailSubscribed {
    #[schema(format = Email)]
    pub email: String,
}

/// `{message}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EmailUnsubscribed {
    pub message: String,
}

/// Whether the caller receives notifications by e-mail.
#[utoipa::path(
    get, path = "/me/notifications/email", tag = "notifications", operation_id = "getEmailSubscription",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Subscribed or not", body = Status),
        Unauthorized,
    )
)]
pub async fn status(state: web::Data<AppState>, auth: Auth) -> Result<Json<Status>, ApiError> {
    let status = state
        .stores
        .notifications
        .email_subscribed(&auth.0.subject)
        .await?;
    Ok(Json(Status { status }))
}

/// Receive notifications by e-mail.
///
/// The address is the token's `email` claim (400 `EMAIL_CLAIM_MISSING` without one); subscribing
/// again takes the token's current address. E-mails are written in the language of the token's
/// `locale` claim.
#[utoipa::path(
    post, path = "/me/notifications/email", tag = "notifications", operation_id = "subscribeEmail",
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Subscribed", body = EmailSubscribed),
        (status = 400, description = "`EMAIL_CLAIM_MISSING`", body = service_kit::ErrorBody),
        Unauthorized,
    )
)]
#[tracing::instrument(name = "subscribe_email", skip_all)]
pub async fn subscribe(state: web::Data<AppState>, auth: Auth) -> Result<HttpResponse, ApiError> {
    let Some(email) = auth.0.email.clone() else {
        return Err(ApiError::new(
            ErrorCode::EmailClaimMissing,
            Message::new("email-claim-missing"),
        ));
    };
    let sub = EmailSubscription {
        email: email.clone(),
        locale: auth.0.locale.clone(),
        unsubscribe_token: uuid::Uuid::new_v4().simple().to_string(),
    };
    super::remember_locale(&state, &auth.0).await?;
    state
        .stores
        .notifications
        .add_email(&auth.0.subject, &sub, state.clock.now())
        .await?;
    Ok(HttpResponse::Created().json(EmailSubscribed { email }))
}

/// Stop notifications by e-mail (nothing to stop is fine).
#[utoipa::path(
    delete, path = "/me/notifications/email", tag = "notifications", operation_id = "unsubscribeEmail",
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Unsubscribed", body = EmailUnsubscribed),
        Unauthorized,
    )
)]
#[tracing::instrument(name = "unsubscribe_email", skip_all)]
pub async fn unsubscribe(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<HttpResponse, ApiError> {
    state
        .stores
        .notifications
        .remove_email(&auth.0.subject)
        .await?;
    // The caller's language: Accept-Language, else the token's `locale`, else English.
    let fallback = i18n::negotiate(auth.0.locale.as_deref(), i18n::Locale::En);
    let accept = req
        .headers()
        .get(actix_web::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let locale = i18n::negotiate(accept, fallback);
    Ok(HttpResponse::Created().json(EmailUnsubscribed {
        message: i18n::render(locale, &Message::new("email-unsubscribed")),
    }))
}
