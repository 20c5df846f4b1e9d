//! The vote pool (`/me/vote-tokens…`): placing, revoking and the pool figures.

use actix_web::web;
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use domain::votes::VoteError;
use serde::{Deserialize, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::{InvalidJsonBody, Unauthorized};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::params::TargetPath;
use super::AppState;
use crate::routes::responses::OwnJsonErrors;
use crate::store::votes::{PlaceError, PlaceRules, PoolFigures, VoteChange, VoteToken};

/// `{target, count}` of placing and revoking.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VoteRequest {
    /// The report voted on (its id).
    pub target: String,
    /// At least 1.
    #[schema(minimum = 1)]
    pub count: i64,
}

/// A vote token (spec 2.6).
#[derive(Debug, Serialize, ToSchema)]
pub struct Token {
    pub token_id: Uuid,
    pub target: Uuid,
    #[serde(serialize_with = "service_kit::instant::serialize")]
    pub inserted_at: chrono::DateTime<chrono::Utc>,
    /// When it stops counting; absent for tokens that never expire.
    #[serde(
        serialize_with = "service_kit::instant::option::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub expires_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(
        serialize_with = "service_kit::instant::option::serialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub revoked_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl From<VoteToken> for Token {
    fn from(t: VoteToken) -> Self {
        Self {
            token_id: t.id,
            target: t.target,
            inserted_at: t.inserted_at,
            expires_at: t.expires_at,
            revoked_at: t.revoked_at,
        }
    }
}

/// The answer to placing: the new tokens and the pool afterwards.
#[derive(Debug, Serialize, ToSchema)]
pub struct Placed {
    pub tokens: Vec<Token>,
    pub active_tokens: u32,
    pub available_tokens: u32,
    pub max_count: u32,
}

/// `GET /me/vote-tokens-summary`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Summary {
    pub active_tokens: u32,
    pub available_tokens: u32,
    pub max_count: u32,
}

/// `GET /me/vote-tokens/{targetId}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct OnTarget {
    /// The caller's active tokens on this target (non-zero: already voted).
    pub active_tokens: u32,
    /// The caller's whole remaining pool.
    pub available_tokens: u32,
}

/// `PATCH /me/vote-token-revoke`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Revoked {
    /// Tokens actually revoked (0 when none was active on the target).
    pub revoked_count: u32,
}

fn count(raw: i64) -> Result<u32, ApiError> {
    if raw < 1 {
        let err = VoteError::CountTooSmall;
        return Err(ApiError::new(err.code(), err.message()));
    }
    Ok(u32::try_from(raw).unwrap_or(u32::MAX))
}

fn target_not_found(target: &str) -> ApiError {
    ApiError::new(
        ErrorCode::VoteTargetNotFound,
        Message::new("vote-target-not-found").arg("target", target),
    )
}

/// Place vote tokens on a report.
///
/// Places `count` tokens on `target` when that many are available, else none (409
/// `NOT_ENOUGH_VOTE_TOKENS`). The answer holds the placed tokens and the pool afterwards.
#[utoipa::path(
    post, path = "/me/vote-tokens", tag = "votes", operation_id = "placeVoteTokens",
    request_body = VoteRequest, security(("bearer" = [])),
    responses(
        (status = 200, description = "Placed", body = Placed),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (count below 1, another property)", body = service_kit::ErrorBody),
        Unauthorized,
        (status = 404, description = "`VOTE_TARGET_NOT_FOUND`", body = service_kit::ErrorBody),
        (status = 409, description = "`NOT_ENOUGH_VOTE_TOKENS`: none placed", body = service_kit::ErrorBody),
        OwnJsonErrors,
    )
)]
#[tracing::instrument(name = "place_votes", skip_all)]
pub async fn place(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<VoteRequest>,
) -> Result<Json<Placed>, ApiError> {
    let count = count(body.0.count)?;
    let target: Uuid = body
        .0
        .target
        .parse()
        .map_err(|_| target_not_found(&body.0.target))?;
    crate::routes::notifications::remember_locale(&state, &auth.0).await?;
    let placed = state
        .stores
        .votes
        .place_votes(
            VoteChange {
                subject: &auth.0.subject,
                target,
                count,
                now: state.clock.now(),
            },
            PlaceRules {
                pool: state.votes.pool(),
                expiry: state.vote_expiry,
            },
        )
        .await;
    match placed {
        Ok((tokens, figures)) => Ok(Json(Placed {
            tokens: tokens.into_iter().map(Token::from).collect(),
            active_tokens: figures.active_tokens,
            available_tokens: figures.available_tokens,
            max_count: figures.max_count,
        })),
        Err(PlaceError::TargetNotFound) => Err(target_not_found(&body.0.target)),
        Err(PlaceError::Refused(err)) => Err(ApiError::new(err.code(), err.message())),
        Err(PlaceError::Store(err)) => Err(err.into()),
    }
}

/// Revoke vote tokens from a report.
///
/// Revokes up to `count` of the caller's active tokens on `target`, the most recently placed
/// first, and answers how many were revoked (0 is an answer).
#[utoipa::path(
    patch, path = "/me/vote-token-revoke", tag = "votes", operation_id = "revokeVoteTokens",
    request_body = VoteRequest, security(("bearer" = [])),
    responses(
        (status = 200, description = "Revoked", body = Revoked),
        InvalidJsonBody,
        Unauthorized,
        OwnJsonErrors,
    )
)]
#[tracing::instrument(name = "revoke_votes", skip_all)]
pub async fn revoke(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<VoteRequest>,
) -> Result<Json<Revoked>, ApiError> {
    let count = count(body.0.count)?;
    let Ok(target) = body.0.target.parse::<Uuid>() else {
        // No token can be on a target that is no id.
        return Ok(Json(Revoked { revoked_count: 0 }));
    };
    let revoked_count = state
        .stores
        .votes
        .revoke_votes(VoteChange {
            subject: &auth.0.subject,
            target,
            count,
            now: state.clock.now(),
        })
        .await?;
    Ok(Json(Revoked { revoked_count }))
}

async fn figures(
    state: &AppState,
    subject: &str,
    target: Option<Uuid>,
) -> Result<(PoolFigures, u32), ApiError> {
    let (all, on_target) = state
        .stores
        .votes
        .active_votes(subject, target, state.clock.now())
        .await?;
    Ok((PoolFigures::new(state.votes.pool(), all), on_target))
}

/// The caller's vote pool.
#[utoipa::path(
    get, path = "/me/vote-tokens-summary", tag = "votes", operation_id = "voteTokensSummary",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The pool", body = Summary),
        Unauthorized,
    )
)]
pub async fn summary(state: web::Data<AppState>, auth: Auth) -> Result<Json<Summary>, ApiError> {
    let (pool, _) = figures(&state, &auth.0.subject, None).await?;
    Ok(Json(Summary {
        active_tokens: pool.active_tokens,
        available_tokens: pool.available_tokens,
        max_count: pool.max_count,
    }))
}

/// The caller's votes on one target.
#[utoipa::path(
    get, path = "/me/vote-tokens/{targetId}", tag = "votes", operation_id = "voteTokensOnTarget",
    params(TargetPath),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's active tokens there and the whole remaining pool", body = OnTarget),
        Unauthorized,
    )
)]
pub async fn on_target(
    state: web::Data<AppState>,
    auth: Auth,
    path: Path<TargetPath>,
) -> Result<Json<OnTarget>, ApiError> {
    let target = path.target_id.parse::<Uuid>().ok();
    let (pool, on_target) = figures(&state, &auth.0.subject, target).await?;
    Ok(Json(OnTarget {
        active_tokens: if target.is_some() { on_target } else { 0 },
        available_tokens: pool.available_tokens,
    }))
}
