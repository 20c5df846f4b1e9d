//! `POST /notifications/email/unsubscribe?token=…`: the one-click unsubscribe of the e-mails
//! (RFC 8058). Public: the token is the secret of the e-mail's `List-Unsubscribe` link.

use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::Deserialize;
use service_kit::extract::Query;
use service_kit::ApiError;
use utoipa::IntoParams;

use super::email::EmailUnsubscribed;
use crate::routes::AppState;

/// The longest token looked up (issued ones are 32 characters).
const MAX_TOKEN_LEN: usize = 128;

/// `?token=`.
#[derive(Debug, Deserialize, IntoParams)]
pub struct TokenQuery {
    /// The subscription's unsubscribe token (from the e-mail's link).
    pub token: String,
}

/// End e-mail notifications with the e-mail's unsubscribe link (no sign-in).
///
/// Mail clients call it with `List-Unsubscribe=One-Click` as the body (RFC 8058); the body is
/// not read. An unknown token (or one used already) is 404 `EMAIL_SUBSCRIPTION_NOT_FOUND`.
#[utoipa::path(
    post, path = "/notifications/email/unsubscribe", tag = "notifications",
    operation_id = "unsubscribeEmailByToken",
    params(TokenQuery),
    responses(
        (status = 200, description = "Unsubscribed", body = EmailUnsubscribed),
        (status = 400, description = "`VALIDATION_ERROR`: no token", body = service_kit::ErrorBody),
        (status = 404, description = "`EMAIL_SUBSCRIPTION_NOT_FOUND`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "unsubscribe_email_by_token", skip_all)]
pub async fn unsubscribe(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || {
        ApiError::new(
            ErrorCode::EmailSubscriptionNotFound,
            Message::new("email-unsubscribe-token-unknown"),
        )
    };
    let token = query.0.token;
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Err(not_found());
    }
    if !state.stores.deliveries.unsubscribe_email(&token).await? {
        return Err(not_found());
    }
    let accept = req
        .headers()
        .get(actix_web::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let locale = i18n::negotiate(accept, i18n::Locale::En);
    Ok(HttpResponse::Ok().json(EmailUnsubscribed {
        message: i18n::render(locale, &Message::new("email-unsubscribed")),
    }))
}
