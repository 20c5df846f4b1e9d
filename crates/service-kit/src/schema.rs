//! Does the database schema match the binary? Every service compares the migrations applied to
//! its database with the ones it embeds, at start-up and in `/readyz`:
//! - behind (a migration is missing): `serve` starts but keeps `/readyz` at 503 and answers API
//!   requests 503 telling the operator to run `<service> migrate`; other commands stop;
//! - ahead (the database knows a migration this binary does not): a newer version migrated it;
//!   every command refuses to start;
//! - unknown (the database is unreachable): API requests pass (they answer 503 on their own) and
//!   `/readyz` checks again.

use async_trait::async_trait;
use sqlx::migrate::Migrator;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::db::{Database, Migrations};
use crate::health::ReadinessCheck;

/// How the database's applied migrations compare with the embedded ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaStatus {
    Current,
    /// Embedded migrations not applied yet.
    Behind {
        missing: Vec<i64>,
    },
    /// Applied migrations this binary does not know.
    Ahead {
        unknown: Vec<i64>,
    },
}

impl SchemaStatus {
    fn compare(embedded: &Migrator, applied: &BTreeSet<i64>) -> Self {
        let known: BTreeSet<i64> = embedded.iter().map(|m| m.version).collect();
        let unknown: Vec<i64> = applied.difference(&known).copied().collect();
        if !unknown.is_empty() {
            return Self::Ahead { unknown };
        }
        let missing: Vec<i64> = known.difference(applied).copied().collect();
        if missing.is_empty() {
            Self::Current
        } else {
            Self::Behind { missing }
        }
    }

    /// The operator-facing explanation, or `None` when current.
    pub fn problem(&self, service: &str) -> Option<String> {
        match self {
            Self::Current => None,
            Self::Behind { missing } => Some(format!(
                "the database schema of {service} is behind this binary (missing migrations \
                 {missing:?}); run `{service} migrate`"
            )),
            Self::Ahead { unknown } => Some(format!(
                "the database of {service} was migrated by a newer version (unknown migrations \
                 {unknown:?}); refusing to run an older binary against it"
            )),
        }
    }
}

/// The applied migrations of `db`, compared with the embedded ones.
pub async fn status(db: &Database, migrations: &Migrations<'_>) -> anyhow::Result<SchemaStatus> {
    let applied: Vec<i64> = match db {
        Database::Postgres(pool) => {
            let table = format!(
                "\"{}\"._sqlx_migrations",
                migrations.schema.replace('"', "\"\"")
            );
            let exists: bool = sqlx::query_scalar("SELECT to_regclass($1) IS NOT NULL")
                .bind(&table)
                .fetch_one(pool)
                .await?;
            if exists {
                sqlx::query_scalar(&format!("SELECT version FROM {table} WHERE success"))
                    .fetch_all(pool)
                    .await?
            } else {
                Vec::new()
            }
        }
        Database::Sqlite(pool) => {
            let exists: bool = sqlx::query_scalar(
                "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
            )
            .fetch_one(pool)
            .await?;
            if exists {
                sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
                    .fetch_all(pool)
                    .await?
            } else {
                Vec::new()
            }
        }
    };
    let embedded = match db {
        Database::Postgres(_) => migrations.postgres,
        Database::Sqlite(_) => migrations.sqlite,
    };
    Ok(SchemaStatus::compare(
        embedded,
        &applied.into_iter().collect(),
    ))
}

/// Whether API requests must be refused because the schema is behind; shared by every worker.
#[derive(Debug, Clone)]
pub struct SchemaGate {
    service: &'static str,
    behind: Arc<AtomicBool>,
}

impl SchemaGate {
    /// An open gate (schema current or not known yet).
    pub fn new(service: &'static str) -> Self {
        Self {
            service,
            behind: Arc::default(),
        }
    }

    pub fn service(&self) -> &'static str {
        self.service
    }

    pub fn is_behind(&self) -> bool {
        self.behind.load(Ordering::Relaxed)
    }

    /// Opens or closes the gate; logs when it changes.
    pub fn update(&self, status: &SchemaStatus) {
        let behind = matches!(status, SchemaStatus::Behind { .. });
        if self.behind.swap(behind, Ordering::Relaxed) != behind {
            match status.problem(self.service) {
                Some(problem) => tracing::error!("{problem}"),
                None => tracing::info!("database schema is current"),
            }
        }
    }
}

/// `/readyz` check `schema`: checks again (so a `migrate` run while the service is up opens the
/// gate) and fails while the schema is not current.
pub struct SchemaCheck {
    pub db: Database,
    pub migrations: Migrations<'static>,
    pub gate: SchemaGate,
}

#[async_trait]
impl ReadinessCheck for SchemaCheck {
    fn name(&self) -> &'static str {
        "schema"
    }

    async fn check(&self) -> anyhow::Result<()> {
        // An unreachable database is the `database` check's failure, not this one's.
        let Ok(status) = status(&self.db, &self.migrations).await else {
            return Ok(());
        };
        self.gate.update(&status);
        match status.problem(self.gate.service) {
            None => Ok(()),
            Some(problem) => anyhow::bail!(problem),
        }
    }
}
