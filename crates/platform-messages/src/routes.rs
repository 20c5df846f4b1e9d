//! HTTP routes (relative to the base path `/api/v1`) and the OpenAPI description.

pub mod model;
mod operator;
mod read;

use std::sync::Arc;

use actix_web::web;
use domain::error_code::ErrorCode;
use service_kit::docs::BearerScheme;
use service_kit::http::ConfigureApi;
use utoipa::OpenApi;

pub use operator::MANAGE_SCOPE;

use crate::clock::Clock;
use crate::notify::Notifier;
use crate::scheduler::Scheduler;
use crate::store::{ClientCache, MessageStore};

/// What the handlers share (as `web::Data<AppState>`).
#[derive(Clone)]
pub struct AppState {
    pub store: Arc<dyn MessageStore>,
    /// What the read endpoints read (client states kept in memory, bounded staleness).
    pub cache: Arc<ClientCache>,
    pub clock: Arc<dyn Clock>,
    pub notifier: Notifier,
    pub scheduler: Arc<Scheduler>,
}

/// The routes under the base path, with their shared state (the auth extractors find the
/// service's `Authenticator` in `AppParts`).
pub fn configure(state: AppState) -> ConfigureApi {
    let state = web::Data::new(state);
    Arc::new(move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(state.clone())
            .service(
                web::resource("/clients/{client_id}/messages")
                    .route(web::get().to(operator::list))
                    .route(web::post().to(operator::create)),
            )
            .service(
                web::resource("/clients/{client_id}/messages/{message_id}")
                    .route(web::get().to(operator::get_one))
                    .route(web::put().to(operator::replace))
                    .route(web::patch().to(operator::patch))
                    .route(web::delete().to(operator::delete)),
            )
            .service(
                web::resource("/public/clients/{client_id}/messages")
                    .route(web::get().to(read::public)),
            )
            .service(web::resource("/me/messages").route(web::get().to(read::me)));
    })
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "platform-messages",
        version = "1.0.0",
        description = "Operator announcements per client application (outage, maintenance, info).\n\n\
            Applications read `GET /public/clients/{client_id}/messages` (no token) or `GET /me/messages` \
            (bearer token) on load, and subscribe to the retained MQTT topic `system/messages/<client_id>`, \
            whose payload `{client_id, version}` changes whenever the answer may have changed. Operators \
            manage messages under `/clients/{client_id}/messages` with the scope `platform:messages:manage`.\n\n\
            Limits: `client_id` 1-64 of `A-Z a-z 0-9 . _ -`; `text` 1-4000 characters of safe Markdown; \
            `title` 1-200 characters; `roles` 1-20 names of 1-100 characters without spaces; \
            windows are half-open `[valid_from, valid_to)`."
    ),
    paths(
        operator::create, operator::list, operator::get_one, operator::replace, operator::patch,
        operator::delete, read::public, read::me
    ),
    components(schemas(
        model::Message, model::MessagesResponse, model::ClientMessages, model::MessageInput,
        model::MessagePatch, model::MessageKind, model::AudienceName
    )),
    modifiers(&BearerScheme),
    tags(
        (name = "messages", description = "What client applications read"),
        (name = "operator", description = "What the platform team manages (scope platform:messages:manage)"),
    )
)]
struct ApiDoc;

/// Every error name this service answers with.
pub const ERROR_CODES: &[ErrorCode] = &[
    ErrorCode::ValidationError,
    ErrorCode::InvalidJson,
    ErrorCode::UnsafeMessageText,
    ErrorCode::Unauthorized,
    ErrorCode::Forbidden,
    ErrorCode::NotFound,
    ErrorCode::MessageNotFound,
    ErrorCode::MethodNotAllowed,
    ErrorCode::RequestTimeout,
    ErrorCode::PayloadTooLarge,
    ErrorCode::UnsupportedMediaType,
    ErrorCode::InternalError,
    ErrorCode::ServiceUnavailable,
];

/// The OpenAPI description of this service.
pub fn openapi(base_path: &str) -> utoipa::openapi::OpenApi {
    service_kit::docs::finalize(ApiDoc::openapi(), base_path, ERROR_CODES)
}
