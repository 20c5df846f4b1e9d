//! `/notifications/email/unsubscribe?token=…`, public (the token is the secret of the e-mail's
//! link):
//! - `POST`: the one-click unsubscribe of the e-mails (RFC 8058), which mail clients call; a
//!   browser's form post (`Accept: text/html`) gets a page instead of JSON;
//! - `GET`: what a citizen who clicks the link in the e-mail sees, a page in their language with a
//!   button that posts. A `GET` never unsubscribes: mail scanners and link previews open every
//!   link of a message (RFC 8058 section 4).

use actix_web::http::header::{ACCEPT, ACCEPT_LANGUAGE};
use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::Deserialize;
use service_kit::extract::Query;
use service_kit::ApiError;
use utoipa::IntoParams;

use super::email::EmailUnsubscribed;
use crate::notify::mail::escape;
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
/// not read. An unknown token (or one used already) is 404 `EMAIL_SUBSCRIPTION_NOT_FOUND`. A
/// request that accepts `text/html` (the form of the `GET` page) gets the answer as a page.
#[utoipa::path(
    post, path = "/notifications/email/unsubscribe", tag = "notifications",
    operation_id = "unsubscribeEmailByToken",
    params(TokenQuery),
    responses(
        (status = 200, description = "Unsubscribed", content(
            (EmailUnsubscribed = "application/json"),
            (String = "text/html"),
        )),
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
    let token = plausible(query.0.token)?;
    if !state.stores.deliveries.unsubscribe_email(&token).await? {
        return Err(token_unknown());
    }
    let locale = locale(&req, state.default_locale);
    let message = i18n::render(locale, &Message::new("email-unsubscribed"));
    if wants_html(&req) {
        let body = format!("<p>{}</p>", escape(&message));
        return Ok(page(locale, &body));
    }
    Ok(HttpResponse::Ok().json(EmailUnsubscribed { message }))
}

/// The page behind the e-mail's unsubscribe link: a question and a button that posts to the
/// same URL (no sign-in).
///
/// Changes nothing (link scanners open every link of an e-mail); the token is checked when the
/// button posts. An empty or over-long token is 404 `EMAIL_SUBSCRIPTION_NOT_FOUND`.
#[utoipa::path(
    get, path = "/notifications/email/unsubscribe", tag = "notifications",
    operation_id = "showEmailUnsubscribePage",
    params(TokenQuery),
    responses(
        (status = 200, description = "The page, in the language of `Accept-Language`", body = String, content_type = "text/html"),
        (status = 400, description = "`VALIDATION_ERROR`: no token", body = service_kit::ErrorBody),
        (status = 404, description = "`EMAIL_SUBSCRIPTION_NOT_FOUND`: empty or over-long token", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "show_email_unsubscribe_page", skip_all)]
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let token = plausible(query.0.token)?;
    let locale = locale(&req, state.default_locale);
    let action = format!(
        "?{}",
        url::form_urlencoded::Serializer::new(String::new())
            .append_pair("token", &token)
            .finish()
    );
    let body =
        format!(
        "<p>{}</p><form method=\"post\" action=\"{}\"><button type=\"submit\">{}</button></form>",
        escape(&i18n::render(locale, &Message::new("email-unsubscribe-question"))),
        escape(&action),
        escape(&i18n::render(locale, &Message::new("email-unsubscribe-button"))),
    );
    Ok(page(locale, &body))
}

/// `EMAIL_SUBSCRIPTION_NOT_FOUND`: no subscription has the token (or it cannot be one).
fn token_unknown() -> ApiError {
    ApiError::new(
        ErrorCode::EmailSubscriptionNotFound,
        Message::new("email-unsubscribe-token-unknown"),
    )
}

/// The token when it could be one that was issued (1 to `MAX_TOKEN_LEN` characters).
fn plausible(token: String) -> Result<String, ApiError> {
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Err(token_unknown());
    }
    Ok(token)
}

/// The language of `Accept-Language`, else `i18n.default_locale`.
fn locale(req: &HttpRequest, default: i18n::Locale) -> i18n::Locale {
    let accept = req
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    i18n::negotiate(accept, default)
}

/// Whether the client asked for HTML (a browser's form post does; a mail client's one-click
/// post does not).
fn wants_html(req: &HttpRequest) -> bool {
    req.headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

/// A minimal page around `body` (already HTML), in `locale`, that no other site may frame.
fn page(locale: i18n::Locale, body: &str) -> HttpResponse {
    let title = escape(&i18n::render(
        locale,
        &Message::new("email-unsubscribe-title"),
    ));
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header(("Content-Language", locale.as_str()))
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
        ))
        .insert_header(("Cache-Control", "no-store"))
        .body(format!(
            "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>",
            lang = locale.as_str(),
        ))
}
