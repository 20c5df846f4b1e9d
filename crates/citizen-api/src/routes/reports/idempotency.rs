//! The `Idempotency-Key` header of `POST /reports` and the claim a request holds on its key
//! (`app::idempotency` keeps the rest; docs/citizen-api/filing.md, "Idempotency-Key").

use std::sync::Arc;

use actix_web::HttpRequest;
use domain::i18n::Message;
use service_kit::ApiError;

use crate::store::idempotency::IdempotencyStore;

/// The request header.
pub const HEADER: &str = "Idempotency-Key";
/// Longest key accepted.
pub const MAX_KEY_CHARS: usize = 255;

/// The request's key: `None` without the header; 400 `VALIDATION_ERROR` when it is repeated,
/// empty, longer than [`MAX_KEY_CHARS`] or not visible ASCII. The draft's form, a structured
/// field string (`"…"`), and a bare token are both accepted and mean the same key.
pub fn key_of(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    let mut values = req.headers().get_all(HEADER);
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let invalid = || ApiError::validation(Message::new("idempotency-key-invalid"));
    if values.next().is_some() {
        return Err(invalid());
    }
    let text = value.to_str().map_err(|_| invalid())?.trim();
    let key = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    let visible = |c: char| c.is_ascii_graphic() && c != '"' && c != '\\';
    if key.is_empty() || key.len() > MAX_KEY_CHARS || !key.chars().all(visible) {
        return Err(invalid());
    }
    Ok(Some(key.to_owned()))
}

/// A key claimed by the running request: released (the row deleted unless the filing's
/// transaction completed it) by [`ClaimGuard::release`] or, when the request is dropped (its
/// client gone), on drop.
pub struct ClaimGuard {
    store: Arc<dyn IdempotencyStore>,
    pub scope: String,
    pub key: String,
    released: bool,
}

impl ClaimGuard {
    pub fn new(store: Arc<dyn IdempotencyStore>, scope: String, key: String) -> Self {
        Self {
            store,
            scope,
            key,
            released: false,
        }
    }

    /// Deletes the claim unless it was completed; a failure is logged at warn (the claim is
    /// taken over after [`crate::app::idempotency::STALE_AFTER`]).
    pub async fn release(mut self) {
        self.released = true;
        release(self.store.as_ref(), &self.scope, &self.key).await;
    }
}

async fn release(store: &dyn IdempotencyStore, scope: &str, key: &str) {
    if let Err(err) = store.release_key(scope, key).await {
        tracing::warn!(error = %err, "could not release an Idempotency-Key");
    }
}

impl Drop for ClaimGuard {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        let (store, scope, key) = (
            self.store.clone(),
            std::mem::take(&mut self.scope),
            std::mem::take(&mut self.key),
        );
        // Not inside a runtime (it is shutting down): the claim is taken over once stale.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { release(store.as_ref(), &scope, &key).await });
        }
    }
}
