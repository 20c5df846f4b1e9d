//! HTTP routes (relative to the base path `/api/v1`) and the OpenAPI description.

mod admin;
mod data_export;
pub mod dto;
mod erasure;
mod geo;
mod me;
pub mod news;
pub mod news_categories;
mod not_found;
mod notifications;
pub mod open311;
mod paging;
pub mod params;
pub mod projects;
mod reports;
pub mod responses;
mod scopes;
mod uploads;
mod vote_list;
mod votes;
pub mod web_app;

use std::sync::Arc;

use actix_web::web;
use domain::error_code::ErrorCode;
use service_kit::clock::Clock;
use service_kit::docs::BearerScheme;
use service_kit::http::cache::HttpCache;
use service_kit::http::ConfigureApi;
use service_kit::multipart::MultipartLimits;
use utoipa::OpenApi;

use crate::captcha::CaptchaVerifier;
use crate::city::City;
use crate::media::MediaStore;
use crate::rate_limit::RateLimiter;
use crate::store::composition::Stores;

/// Super admin: sees and works the issues of every category.
pub const ACCESS_ALL_SCOPE: &str = "cityuser:report-categories:access-all";

/// What the handlers share (as `web::Data<AppState>`).
pub struct AppState {
    pub stores: Stores,
    pub city: Arc<City>,
    pub media: MediaStore,
    /// The limits of the filing form (`media.*` plus the text fields).
    pub form_limits: MultipartLimits,
    /// `media.max_total_bytes`: the files of one filing together, as uploaded (the form's
    /// total in `form_limits` leaves room for the text fields on top).
    pub max_media_total: u64,
    pub captcha: CaptchaVerifier,
    pub rate_limiter: RateLimiter,
    /// `rate_limit.trusted_proxy_hops`: how the client address is told (also sent to the CAPTCHA
    /// verifier).
    pub trusted_proxy_hops: usize,
    /// `votes.*` and the expiry rule it gives.
    pub votes: crate::settings::votes::VoteSettings,
    pub vote_expiry: domain::votes::ExpiryRule<chrono::DateTime<chrono::Utc>>,
    /// `duplicates.*`: when an opened issue gets suggestions (`None`: off).
    pub duplicates: Option<domain::duplicates::DuplicateRule>,
    pub clock: Arc<dyn Clock>,
    /// `notifications.*`.
    pub notifications: Arc<crate::notify::NotificationSettings>,
    /// The VAPID public key browsers subscribe with (`None`: no web push is sent).
    pub vapid_public_key: Option<String>,
    /// `i18n.default_locale`: the language of answers when `Accept-Language` names none we have.
    pub default_locale: i18n::Locale,
    /// `privacy.*`.
    pub privacy: crate::app::retention::PrivacySettings,
    /// `http.base_path`: where the links the service hands out start.
    pub base_path: String,
    /// The Open311 facade's settings and endpoint (`open311.*`).
    pub open311: Arc<open311::Open311>,
    /// `reports.idempotency_key_hours`: how long an `Idempotency-Key` is kept.
    pub idempotency_ttl: chrono::TimeDelta,
}

/// The public reads: browsers and the reverse proxy may keep their answers for
/// `http_cache.max_age_seconds` (docs/citizen-api.md, "HTTP caching").
pub const PUBLIC_GETS: &[&str] = &[
    "/reports",
    "/reports/{report_id}",
    "/reports/{report_id}/status",
    "/geo/boundary",
    "/news",
    "/news/{new_id}",
    "/news-categories",
    "/projects",
    "/projects/{project_id}",
    "/notifications/webpush/public-key",
    "/open311/v2/discovery.{format}",
    "/open311/v2/services.{format}",
    "/open311/v2/services/{service_code}.{format}",
    "/open311/v2/requests.{format}",
    "/open311/v2/requests/{service_request_id}.{format}",
];

/// What depends on who asks, whatever the request: never kept by a shared cache.
pub const PRIVATE_PREFIXES: &[&str] = &["/me", "/admin", "/data-exports"];

/// The routes under the base path, with their shared state and the caching headers of their
/// answers (the auth extractors find the service's `Authenticator` in `AppParts`).
pub fn configure(state: AppState, cache: HttpCache) -> ConfigureApi {
    let media = web::Data::new(state.media.clone());
    let state = web::Data::new(state);
    Arc::new(move |cfg: &mut web::ServiceConfig| {
        cfg.service(
            web::scope("")
                .wrap(cache.clone())
                .configure(|cfg| routes(cfg, &state, &media)),
        );
    })
}

fn routes(
    cfg: &mut web::ServiceConfig,
    state: &web::Data<AppState>,
    media: &web::Data<MediaStore>,
) {
    cfg.app_data(state.clone())
        .service(
            web::resource("/reports")
                .route(web::get().to(reports::list::list))
                .route(web::post().to(reports::create::create)),
        )
        .service(
            web::resource("/media/{media_id}")
                .app_data(media.clone())
                .route(web::get().to(crate::media::serve::serve_media)),
        )
        .service(
            web::resource("/reports/{report_id}").route(web::get().to(reports::detail::detail)),
        )
        .service(
            web::resource("/reports/{report_id}/status")
                .route(web::get().to(reports::status::status)),
        )
        .service(web::resource("/me").route(web::delete().to(erasure::erase)))
        .service(web::resource("/me/reports").route(web::get().to(me::reports)))
        .service(
            web::resource("/me/reports-categories").route(web::get().to(me::report_categories)),
        )
        .service(web::resource("/geo/boundary").route(web::get().to(geo::boundary)))
        .service(
            web::resource("/me/vote-tokens")
                .route(web::get().to(vote_list::list))
                .route(web::post().to(votes::place)),
        )
        .service(web::resource("/me/vote-tokens-summary").route(web::get().to(votes::summary)))
        .service(
            web::resource("/me/vote-tokens/{target_id}").route(web::get().to(votes::on_target)),
        )
        .service(web::resource("/me/vote-token-revoke").route(web::patch().to(votes::revoke)))
        .configure(news::configure)
        .configure(news_categories::configure)
        .configure(projects::configure)
        .configure(notifications::configure)
        .configure(data_export::configure)
        .configure(|cfg| open311::configure(cfg, &state.open311));
    admin::configure(cfg);
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "citizen-api",
        version = "1.0.0",
        description = "Citizens' reports of problems in the city: filing (with photos and a location \
            inside the city), the public list and detail, each report's issues (one per category it is \
            handled in) whose states give the report its status, and the public timeline with the \
            city's statements.\n\n\
            Limits: `limit` 1-100 (default 100), `offset` 0-1000 (default 0), `q` 1-200 characters, \
            report `title` 1-256 and `description` 1-2048 characters (characters, not bytes)."
    ),
    paths(
        reports::list::list, reports::create::create, reports::detail::detail, reports::status::status, me::reports,
        me::report_categories, geo::boundary, vote_list::list, votes::place, votes::revoke, votes::summary,
        votes::on_target, erasure::erase
    ),
    components(schemas(
        dto::Report, dto::ReportRow, dto::ReportList, dto::OwnReport, dto::OwnReportList, dto::Media, dto::Point, dto::StatusStep,
        dto::StatusSteps, dto::Statement, dto::StatementMedia, dto::Category,
        dto::Categories, dto::IssueStatusSchema, reports::create::ReportForm,
        votes::VoteRequest, votes::Token, votes::Placed, votes::Summary, votes::OnTarget,
        votes::Revoked, vote_list::TokenPage, erasure::EraseRequest, erasure::RemovePhotos
    )),
    modifiers(&BearerScheme),
    tags(
        (name = "reports", description = "Reports of problems in the city (sign-in optional)"),
        (name = "votes", description = "The caller's vote pool (sign-in required)"),
        (name = "me", description = "The caller's own reports and categories, the export and the erasure of the caller's data (sign-in required; an export's download link is its own credential)"),
    )
)]
struct ApiDoc;

/// Every error name this service answers with.
pub const ERROR_CODES: &[ErrorCode] = &[
    ErrorCode::ValidationError,
    ErrorCode::NoMedia,
    ErrorCode::TotalMediaSizeTooLarge,
    ErrorCode::ReportInvalidLocation,
    ErrorCode::ReportOutsideCity,
    ErrorCode::Unauthorized,
    ErrorCode::Forbidden,
    ErrorCode::CaptchaVerificationFailed,
    ErrorCode::NotFound,
    ErrorCode::ReportNotFound,
    ErrorCode::VoteTargetNotFound,
    ErrorCode::NotEnoughVoteTokens,
    ErrorCode::NewsItemNotFound,
    ErrorCode::CategoryNotFound,
    ErrorCode::CategoryHasChildren,
    ErrorCode::ProjectNotFound,
    ErrorCode::InvalidNotificationTags,
    ErrorCode::WebpushEndpointNotAllowed,
    ErrorCode::InvalidWebpushKeys,
    ErrorCode::WebpushSubscriptionNotFound,
    ErrorCode::EmailClaimMissing,
    ErrorCode::EmailSubscriptionNotFound,
    ErrorCode::InvalidJson,
    ErrorCode::MethodNotAllowed,
    ErrorCode::RequestTimeout,
    ErrorCode::PayloadTooLarge,
    ErrorCode::UnsupportedMediaType,
    ErrorCode::TooManyRequests,
    ErrorCode::InternalError,
    ErrorCode::ServiceUnavailable,
    // admin
    ErrorCode::Conflict,
    ErrorCode::IssueTransitionNotAllowed,
    ErrorCode::IssueNotFound,
    ErrorCode::MediaNotFound,
    ErrorCode::CategoryInUse,
    ErrorCode::ReplyTemplateNotFound,
    ErrorCode::TooManyReplyTemplates,
];

/// The OpenAPI description of this service.
pub fn openapi(base_path: &str) -> utoipa::openapi::OpenApi {
    let mut api = ApiDoc::openapi();
    api.merge(news::NewsApi::openapi());
    api.merge(news_categories::NewsCategoriesApi::openapi());
    api.merge(projects::ProjectsApi::openapi());
    api.merge(admin::AdminDoc::openapi());
    api.merge(notifications::NotificationsDoc::openapi());
    api.merge(data_export::DataExportApi::openapi());
    api.merge(open311::Open311Doc::openapi());
    service_kit::docs::finalize(api, base_path, ERROR_CODES)
}
