//! `/healthz` (the process answers) and `/readyz` (its dependencies answer).

use actix_web::HttpResponse;
use async_trait::async_trait;
use domain::i18n::Message;
use std::sync::Arc;
use std::time::Duration;

use crate::error::ApiError;
use domain::error_code::ErrorCode;

/// A dependency that must be reachable for the service to take traffic.
#[async_trait]
pub trait ReadinessCheck: Send + Sync {
    /// Short name shown in `/readyz`, e.g. `database`, `mqtt`.
    fn name(&self) -> &'static str;
    /// `Ok` when reachable; the error goes to the log, never to the client.
    async fn check(&self) -> anyhow::Result<()>;
}

/// The checks of one service.
#[derive(Clone, Default)]
pub struct Readiness {
    checks: Vec<Arc<dyn ReadinessCheck>>,
}

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

impl Readiness {
    pub fn with(mut self, check: Arc<dyn ReadinessCheck>) -> Self {
        self.checks.push(check);
        self
    }

    /// Runs every check concurrently, each bounded by a timeout; returns the failing names.
    pub async fn failing(&self) -> Vec<&'static str> {
        let results = futures::future::join_all(self.checks.iter().map(|c| async move {
            let outcome = tokio::time::timeout(CHECK_TIMEOUT, c.check()).await;
            match outcome {
                Ok(Ok(())) => None,
                Ok(Err(err)) => {
                    tracing::warn!(
                        check = c.name(),
                        error = format!("{err:#}"),
                        "readiness check failed"
                    );
                    Some(c.name())
                }
                Err(_) => {
                    tracing::warn!(check = c.name(), "readiness check timed out");
                    Some(c.name())
                }
            }
        }))
        .await;
        results.into_iter().flatten().collect()
    }

    /// `/readyz`: 200 `{"status":"ready"}`, or 503 naming the failing checks.
    pub(crate) async fn respond(&self) -> Result<HttpResponse, ApiError> {
        let failing = self.failing().await;
        if failing.is_empty() {
            Ok(HttpResponse::Ok()
                .content_type("application/json")
                .body(r#"{"status":"ready"}"#))
        } else {
            Err(ApiError::new(
                ErrorCode::ServiceUnavailable,
                Message::new("not-ready").arg("checks", failing.join(", ")),
            ))
        }
    }
}

/// `/healthz`: the process answers.
pub(crate) async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(r#"{"status":"ok"}"#)
}
