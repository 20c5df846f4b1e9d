//! What users read: the public messages of a client and the messages for the signed-in user.

use std::sync::Arc;

use actix_web::http::header::{HeaderMap, HeaderValue, CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use actix_web::{web, HttpRequest, HttpResponse};
use domain::i18n::Message as Text;
use domain::messages::Viewer;
use service_kit::auth::Auth;
use service_kit::extract::{Path, Query};
use service_kit::ApiError;

use super::model::{MeQuery, Message, MessagesResponse};
use super::operator::checked_client_id;
use super::AppState;
use crate::store::{ClientState, Instant};

/// A client's state read for one request: what it answers depends only on it and `now`, so window
/// edges change the answer exactly at the edge without a database access.
struct Snapshot {
    state: Arc<ClientState>,
    now: Instant,
}

impl AppState {
    /// The client's state from the read cache (at most `cache.max_staleness_millis` behind
    /// another replica's write, never behind this one's) and the current instant.
    async fn snapshot(&self, client_id: &str) -> Result<Snapshot, ApiError> {
        let state = self
            .cache
            .client_state(client_id)
            .await
            .map_err(ApiError::storage)?;
        Ok(Snapshot {
            state,
            now: self.clock.now(),
        })
    }
}

impl Snapshot {
    fn version(&self) -> String {
        self.state.version_at(self.now).to_string()
    }

    /// The messages `viewer` sees now, with the client's version and next change.
    fn visible(&self, version: String, viewer: Viewer<'_>) -> MessagesResponse {
        let now = self.now;
        MessagesResponse {
            version,
            next_change_at: self.state.next_change_after(now),
            messages: self
                .state
                .messages
                .iter()
                .filter(|m| m.fields.targeting.visible_to(&viewer, now))
                .map(|m| Message::from(m.clone()))
                .collect(),
        }
    }
}

fn etag(version: &str) -> String {
    format!("\"{version}\"")
}

/// Whether an `If-None-Match` header matches `tag` (weak comparison, `*` matches anything).
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .map(str::trim)
                .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == tag)
        })
}

/// Messages for everyone that are valid now (no token).
///
/// Answers with an `ETag` of the version; a request with a matching `If-None-Match` gets 304.
#[utoipa::path(
    get, path = "/public/clients/{client_id}/messages", tag = "messages",
    params(
        ("client_id" = String, Path, description = "Client application id", min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9][A-Za-z0-9._-]*$"),
        ("If-None-Match" = Option<String>, Header, description = "ETag of a previous answer (the quoted version)"),
    ),
    responses(
        (status = 200, description = "Messages for everyone, valid now, newest first; an unknown client has none (version `0.0`)", body = MessagesResponse,
            headers(("ETag" = String, description = "The version, quoted"))),
        (status = 304, description = "Unchanged since the `If-None-Match` version",
            headers(("ETag" = String, description = "The version, quoted"))),
        (status = 400, description = "`VALIDATION_ERROR`: invalid client id", body = service_kit::ErrorBody),
    )
)]
pub async fn public(
    state: web::Data<AppState>,
    client_id: Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let client_id = client_id.into_inner();
    checked_client_id(&client_id)?;
    let snapshot = state.snapshot(&client_id).await?;
    let version = snapshot.version();
    let tag = etag(&version);
    let unchanged = matches(request.headers(), &tag);
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    if let Ok(value) = HeaderValue::from_str(&tag) {
        response.insert_header((ETAG, value));
    }
    // Caches may keep it but must ask again each time (cheaply, with If-None-Match).
    response.insert_header((CACHE_CONTROL, HeaderValue::from_static("no-cache")));
    if unchanged {
        Ok(response.finish())
    } else {
        Ok(response.json(snapshot.visible(version, Viewer::Anonymous)))
    }
}

/// Messages for the signed-in user: those for everyone, for signed-in users and for the user's
/// roles (from the token's roles claim), valid now.
///
/// The client application comes from the `client_id` query parameter, else from the token's
/// client claim (`azp` by default).
#[utoipa::path(
    get, path = "/me/messages", tag = "messages",
    params(MeQuery),
    responses(
        (status = 200, description = "Messages for this user, valid now, newest first", body = MessagesResponse),
        (status = 400, description = "`VALIDATION_ERROR`: no client id in the query or the token, or an invalid one", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`: missing or invalid token", body = service_kit::ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn me(
    state: web::Data<AppState>,
    Auth(principal): Auth,
    Query(query): Query<MeQuery>,
) -> Result<HttpResponse, ApiError> {
    let client_id = query
        .client_id
        .or(principal.client_id)
        .ok_or_else(|| ApiError::validation(Text::new("client-id-missing")))?;
    checked_client_id(&client_id)?;
    let roles: Vec<String> = principal.roles.into_iter().collect();
    let snapshot = state.snapshot(&client_id).await?;
    let body = snapshot.visible(snapshot.version(), Viewer::SignedIn { roles: &roles });
    // The content depends on the user, so no shared caching.
    Ok(HttpResponse::Ok()
        .insert_header((CACHE_CONTROL, HeaderValue::from_static("private, no-cache")))
        .json(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_forms() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(
                IF_NONE_MATCH,
                HeaderValue::from_str(v).unwrap_or(HeaderValue::from_static("")),
            );
            h
        };
        assert!(matches(&with("\"3.1\""), "\"3.1\""));
        assert!(matches(&with("W/\"3.1\""), "\"3.1\""));
        assert!(matches(&with("\"1.0\", \"3.1\""), "\"3.1\""));
        assert!(matches(&with("*"), "\"3.1\""));
        assert!(!matches(&with("\"3.10\""), "\"3.1\""));
        assert!(!matches(&with("3.1"), "\"3.1\""));
        assert!(!matches(&HeaderMap::new(), "\"3.1\""));
    }
}
