//! `/me/notifications…`: the caller's feed, read marks and delivery settings (spec 2.7, 2.8,
//! 4.1).

pub mod email;
pub mod email_unsubscribe;
pub mod list;
pub mod model;
pub mod read;
pub mod settings;
pub mod webpush;

use actix_web::web;
use utoipa::OpenApi;

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
        email_unsubscribe::show
    ),
    components(schemas(
        model::NotificationItem, model::NotificationPage, read::ReadRequest, read::ReadAnswer,
        read::UnreadCount, settings::SettingsBody, settings::IntervalName, webpush::Subscription,
        webpush::SubscriptionKeys, webpush::Subscribed, webpush::Status, webpush::Unsubscribed,
        email::EmailSubscribed, email::EmailUnsubscribed
    )),
    tags((name = "notifications", description = "The caller's notifications: feed, read marks, \
        settings and delivery channels (sign-in required)"))
)]
pub struct NotificationsDoc;
