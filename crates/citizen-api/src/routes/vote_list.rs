//! `GET /me/vote-tokens`: the caller's tokens, newest first, paged by a cursor.
//!
//! `pagecursor` is repeated: `?pagecursor=<inserted_at>&pagecursor=<token_id>` (the spec's two
//! strings), optionally with the third string of a handed-out `nextCursor`. `nextCursor` is
//! `[inserted_at, token_id, filter]`: the last token's position, and the `active` filter the page
//! was made with (`true`, `false` or `all`), so a client that only passes the cursor back keeps
//! its filter. A cursor is accepted with 2 strings, or with 3 whose third agrees with `active`.

use actix_web::web;
use chrono::{DateTime, SecondsFormat, Utc};
use domain::i18n::Message;
use domain::limits::LimitError;
use serde::{Deserialize, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::{parse_bool, Json, Query};
use service_kit::ApiError;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::paging::{instant, next_cursor, page_limit};
use super::votes::Token;
use super::AppState;
use crate::store::votes::TokenQuery;

/// A page of tokens.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenPage {
    pub tokens: Vec<Token>,
    /// `[inserted_at, token_id, filter]` of the next page, or null on the last one.
    pub next_cursor: Option<[String; 3]>,
}

/// The query parameters of `GET /me/vote-tokens`, as sent.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VoteListParams {
    /// Page size (default 100)
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100)]
    limit: Option<String>,
    /// true: only active; false: only inactive
    #[param(value_type = Option<bool>)]
    active: Option<String>,
    /// [inserted_at, token_id] or a handed-out nextCursor
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    pagecursor: Vec<String>,
}

/// The page asked for.
struct Selection {
    limit: u32,
    active: Option<bool>,
    after: Option<(DateTime<Utc>, Uuid)>,
}

fn bad(parameter: &'static str, message: Message) -> LimitError {
    LimitError::new(parameter, message)
}

fn filter_name(active: Option<bool>) -> &'static str {
    match active {
        Some(true) => "true",
        Some(false) => "false",
        None => "all",
    }
}

impl VoteListParams {
    /// Checks the values and the cursor against the `active` filter.
    fn into_selection(self) -> Result<Selection, LimitError> {
        let limit = page_limit(self.limit.as_deref())?;
        let active = self
            .active
            .as_deref()
            .map(|v| parse_bool(v).ok_or_else(|| bad("active", Message::new("vote-list-active"))))
            .transpose()?;
        let cursor = &self.pagecursor;
        let (active, after) = match cursor.as_slice() {
            [] => (active, None),
            [at, id] | [at, id, _] => {
                let at = instant(at)
                    .ok_or_else(|| bad("pagecursor", Message::new("vote-list-cursor")))?;
                let id: Uuid = id
                    .parse()
                    .map_err(|_| bad("pagecursor", Message::new("vote-list-cursor")))?;
                let active = match cursor.get(2).map(String::as_str) {
                    None => active,
                    Some("all") if active.is_none() => None,
                    Some(f) if active.is_none() || f == filter_name(active) => Some(
                        parse_bool(f)
                            .ok_or_else(|| bad("pagecursor", Message::new("vote-list-cursor")))?,
                    ),
                    Some(_) => {
                        return Err(bad("pagecursor", Message::new("vote-list-cursor-filter")))
                    }
                };
                (active, Some((at, id)))
            }
            _ => return Err(bad("pagecursor", Message::new("vote-list-cursor"))),
        };
        Ok(Selection {
            limit,
            active,
            after,
        })
    }
}

/// The caller's vote tokens.
///
/// Newest first; `active=true` only active, `active=false` only revoked or expired ones.
/// `pagecursor`: repeat the parameter for each string of the cursor (see the module docs).
#[utoipa::path(
    get, path = "/me/vote-tokens", tag = "votes", operation_id = "listVoteTokens",
    params(VoteListParams),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page", body = TokenPage),
        (status = 400, description = "`VALIDATION_ERROR`: a malformed limit, active or cursor", body = service_kit::ErrorBody),
        Unauthorized,
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    auth: Auth,
    Query(params): Query<VoteListParams>,
) -> Result<Json<TokenPage>, ApiError> {
    let params = params.into_selection()?;
    let mut tokens = state
        .stores
        .votes
        .vote_tokens(TokenQuery {
            subject: &auth.0.subject,
            active: params.active,
            after: params.after,
            limit: params.limit + 1,
            now: state.clock.now(),
        })
        .await?;
    let next_cursor = next_cursor(&mut tokens, params.limit, |last| {
        [
            last.inserted_at
                .to_rfc3339_opts(SecondsFormat::Micros, true),
            last.id.to_string(),
            filter_name(params.active).to_owned(),
        ]
    });
    Ok(Json(TokenPage {
        tokens: tokens.into_iter().map(Token::from).collect(),
        next_cursor,
    }))
}
