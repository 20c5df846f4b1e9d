//! `/me/notifications…`: the caller's feed, read marks and delivery settings (spec 2.7, 2.8,
//! 4.1).

pub mod dto;
pub mod email;
pub mod email_unsubscribe;
pub mod list;
pub mod read;
pub mod settings;
pub mod webpush;

use actix_web::web;
use service_kit::auth::Principal;
use service_kit::ApiError;
use utoipa::OpenApi;

use crate::routes::AppState;

/// Records the language of the caller's token (`locale` claim) for what is written to them,
/// unless one is recorded already (`NotificationStore::remember_locale`). Called by the first
/// things a citizen does (file, vote, subscribe) before doing them, so their notifications,
/// feed entries included, are written in that language until the settings are saved.
pub async fn remember_locale(state: &AppState, principal: &Principal) -> Result<(), ApiError> {
    // A language tag (BCP 47) is short; anything else is not worth keeping.
    let Some(locale) = principal
        .locale
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty() && l.len() <= 35)
    else {
        return Ok(());
    };
    state
        .stores
        .notifications
        .remember_locale(&principal.subject, locale, state.clock.now())
        .await?;
    Ok(())
}

/// Registers the routes (one call in the service's `configure`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/me/notifications").route(web::get().to(list::list)))
        .service(web::resource("/me/notifications/read").route(web::patch().to(read::read)))
        .service(
            web::resource("/me/notifications/unread-count")
                .route(web::get().to(read::unread_count)),
        )
        .service(
            web::resource("/me/notifications/settings")
                .route(web::get().to(settings::get))
                .route(web::put().to(settings::put)),
        )
        .service(
            web::resource("/me/notifications/webpush")
                .route(web::get().to(webpush::status))
                .route(web::post().to(webpush::subscribe))
                .route(web::delete().to(webpush::unsubscribe)),
        )
        .service(
            web::resource("/me/notifications/email")
                .route(web::get().to(email::status))
                .route(web::post().to(email::subscribe))
                .route(web::delete().to(email::unsubscribe)),
        )
        .service(
            web::resource("/notifications/webpush/public-key")
                .route(web::get().to(webpush::public_key)),
        )
        .service(
            web::resource("/notifications/email/unsubscribe")
                .route(web::get().to(email_unsubscribe::show))
                .route(web::post().to(email_unsubscribe::unsubscribe)),
        );
}

/// The OpenAPI part of these routes, merged into the service's description.
#[derive(OpenApi)]
#[openapi(
    paths(
        list::list, read::read, read::unread_count, settings::get, settings::put,
        webpush::status, webpush::subscribe, webpush::unsubscribe, email::status,
        email::subscribe, email::unsubscribe, email_unsubscribe::unsubscribe,
        email_unsubscribe::show, webpush::public_key
    ),
    components(schemas(
        dto::NotificationItem, dto::NotificationPage, read::ReadRequest, read::ReadAnswer,
        read::UnreadCount, settings::SettingsBody, settings::IntervalName, webpush::Subscription,
        webpush::SubscriptionKeys, webpush::Subscribed, webpush::Status, webpush::Unsubscribed,
        webpush::PublicKey,
        email::EmailSubscribed, email::EmailUnsubscribed
    )),
    tags((name = "notifications", description = "The caller's notifications: feed, read marks, \
        settings and delivery channels (sign-in required)"))
)]
pub struct NotificationsDoc;
