//! The operator API: create, list, read, replace, patch and delete a client's messages.
//! Every route needs a bearer token with the scope `platform:messages:manage`.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message as Text;
use domain::messages::{validate_client_id, MessageRuleError};
use service_kit::docs::responses::{Forbidden, Unauthorized, UnsupportedMediaType};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use uuid::Uuid;

use super::model::{
    ClientMessages, InvalidMessage, Message, MessageInput, MessageNotFound, MessagePatch,
    MessagePath,
};
use super::AppState;
use crate::store::StoredMessage;

/// The scope of the operator API.
pub const MANAGE_SCOPE: &str = "platform:messages:manage";

pub(super) fn rule_error(err: MessageRuleError) -> ApiError {
    ApiError::new(err.code(), err.message())
}

pub(super) fn checked_client_id(client_id: &str) -> Result<(), ApiError> {
    validate_client_id(client_id).map_err(rule_error)
}

service_kit::scoped!(
    /// Holds `platform:messages:manage`: 401 without a token, 403 without the scope, both
    /// before the path and the body are judged.
    pub Operator, Operating: MANAGE_SCOPE
);

service_kit::response_group! {
    /// The errors of every route on one message: token, scope, and a message the client lacks.
    struct MessageErrors(Unauthorized, Forbidden, MessageNotFound);
}

service_kit::response_group! {
    /// The errors of a route that stores a whole message in place of one (`PUT`, and `PATCH`
    /// after merging).
    struct MessageWriteErrors(InvalidMessage, MessageErrors, UnsupportedMediaType);
}

fn not_found(id: Uuid) -> ApiError {
    ApiError::new(
        ErrorCode::MessageNotFound,
        Text::new("message-not-found").arg("id", id),
    )
}

impl AppState {
    /// After a stored write: make the read cache check the database, queue the MQTT notice and
    /// let the scheduler see the new windows.
    fn after_write(&self, client_id: &str) {
        self.cache.invalidate(client_id);
        self.notifier.changed(client_id);
        self.scheduler.wake();
    }
}

/// Create a message for a client application.
#[utoipa::path(
    post, path = "/clients/{client_id}/messages", tag = "operator",
    params(("client_id" = String, Path, description = "Client application id: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit", min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9][A-Za-z0-9._-]*$")),
    request_body = MessageInput,
    responses(
        (status = 201, description = "Stored; the MQTT notice follows (a broker that is down does not fail the write)", body = Message),
        (status = 400, description = "`VALIDATION_ERROR` (client id, text size, title, kind, audience, roles, window), `UNSAFE_MESSAGE_TEXT`, `INVALID_JSON`", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`: missing or invalid token", body = service_kit::ErrorBody),
        (status = 403, description = "`FORBIDDEN`: scope `platform:messages:manage` missing", body = service_kit::ErrorBody),
        UnsupportedMediaType,
    ),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn create(
    state: web::Data<AppState>,
    operator: Operator,
    client_id: Path<String>,
    Json(input): Json<MessageInput>,
) -> Result<HttpResponse, ApiError> {
    let client_id = client_id.into_inner();
    checked_client_id(&client_id)?;
    let fields = input.validate().map_err(rule_error)?;
    let now = state.clock.now();
    let stored = state
        .store
        .create_message(&client_id, Uuid::now_v7(), &fields, now)
        .await
        .map_err(ApiError::storage)?;
    state.after_write(&client_id);
    tracing::info!(client_id, message_id = %stored.id, subject = operator.0.subject, "message created");
    Ok(HttpResponse::Created().json(Message::from(stored)))
}

/// List every stored message of a client (also those outside their window).
#[utoipa::path(
    get, path = "/clients/{client_id}/messages", tag = "operator",
    params(("client_id" = String, Path, description = "Client application id", min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9][A-Za-z0-9._-]*$")),
    responses(
        (status = 200, description = "All messages of the client, newest first, with the current version", body = ClientMessages),
        (status = 400, description = "`VALIDATION_ERROR`: invalid client id", body = service_kit::ErrorBody),
        Unauthorized,
        Forbidden,
    ),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn list(
    state: web::Data<AppState>,
    _operator: Operator,
    client_id: Path<String>,
) -> Result<Json<ClientMessages>, ApiError> {
    let client_id = client_id.into_inner();
    checked_client_id(&client_id)?;
    let now = state.clock.now();
    let client = state
        .store
        .client_state(&client_id)
        .await
        .map_err(ApiError::storage)?;
    Ok(Json(ClientMessages {
        version: client.version_at(now).to_string(),
        next_change_at: client.next_change_after(now),
        messages: client.messages.into_iter().map(Message::from).collect(),
        client_id,
    }))
}

async fn load(state: &AppState, path: &MessagePath) -> Result<StoredMessage, ApiError> {
    state
        .store
        .get_message(&path.client_id, path.message_id)
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(|| not_found(path.message_id))
}

/// Read one message.
#[utoipa::path(
    get, path = "/clients/{client_id}/messages/{message_id}", tag = "operator",
    params(MessagePath),
    responses(
        (status = 200, body = Message),
        (status = 400, description = "`VALIDATION_ERROR`: invalid client id or message id", body = service_kit::ErrorBody),
        MessageErrors,
    ),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn get_one(
    state: web::Data<AppState>,
    _operator: Operator,
    path: Path<MessagePath>,
) -> Result<Json<Message>, ApiError> {
    checked_client_id(&path.client_id)?;
    Ok(Json(load(&state, &path).await?.into()))
}

async fn store_update(
    state: &AppState,
    path: &MessagePath,
    input: MessageInput,
) -> Result<Message, ApiError> {
    let (client_id, id) = (path.client_id.as_str(), path.message_id);
    let fields = input.validate().map_err(rule_error)?;
    let now = state.clock.now();
    let stored = state
        .store
        .update_message(client_id, id, &fields, now)
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(|| not_found(id))?;
    state.after_write(client_id);
    tracing::info!(client_id, message_id = %id, "message updated");
    Ok(stored.into())
}

/// Replace a message (every field; omitted optional fields take their defaults).
#[utoipa::path(
    put, path = "/clients/{client_id}/messages/{message_id}", tag = "operator",
    params(MessagePath),
    request_body = MessageInput,
    responses((status = 200, body = Message), MessageWriteErrors),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn replace(
    state: web::Data<AppState>,
    _operator: Operator,
    path: Path<MessagePath>,
    Json(input): Json<MessageInput>,
) -> Result<Json<Message>, ApiError> {
    checked_client_id(&path.client_id)?;
    Ok(Json(store_update(&state, &path, input).await?))
}

/// Change some fields of a message; the result is validated like a full message. Concurrent
/// patches of one message: the last one wins.
#[utoipa::path(
    patch, path = "/clients/{client_id}/messages/{message_id}", tag = "operator",
    params(MessagePath),
    request_body = MessagePatch,
    responses((status = 200, body = Message), MessageWriteErrors),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn patch(
    state: web::Data<AppState>,
    _operator: Operator,
    path: Path<MessagePath>,
    Json(patch): Json<MessagePatch>,
) -> Result<Json<Message>, ApiError> {
    checked_client_id(&path.client_id)?;
    let current = Message::from(load(&state, &path).await?);
    let merged = patch.apply(current.into());
    Ok(Json(store_update(&state, &path, merged).await?))
}

/// Delete a message.
#[utoipa::path(
    delete, path = "/clients/{client_id}/messages/{message_id}", tag = "operator",
    params(MessagePath),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, description = "`VALIDATION_ERROR`", body = service_kit::ErrorBody),
        MessageErrors,
    ),
    security(("bearer" = ["platform:messages:manage"]))
)]
pub async fn delete(
    state: web::Data<AppState>,
    _operator: Operator,
    path: Path<MessagePath>,
) -> Result<HttpResponse, ApiError> {
    checked_client_id(&path.client_id)?;
    let (client_id, id) = (path.client_id.as_str(), path.message_id);
    let now = state.clock.now();
    if !state
        .store
        .delete_message(client_id, id, now)
        .await
        .map_err(ApiError::storage)?
    {
        return Err(not_found(id));
    }
    state.after_write(client_id);
    tracing::info!(client_id, message_id = %id, "message deleted");
    Ok(HttpResponse::NoContent().finish())
}
