//! `votes.*`: the pool size and the expiry rule of vote tokens.

use chrono::{DateTime, Utc};
use domain::votes::{ExpiryRule, VotePool};
use serde::Deserialize;

/// When placed tokens stop counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expiry {
    /// Active until revoked.
    Never,
    /// `expiry_days` after placing.
    Days,
    /// At `period_end` (the end of a voting period).
    PeriodEnd,
}

/// `votes.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoteSettings {
    /// Tokens every account has (the same for all accounts).
    pub max_count: u32,
    /// `never`, `days` or `period_end`.
    pub expiry: Expiry,
    /// With `expiry = "days"`: days a token counts after it is placed.
    #[serde(default)]
    pub expiry_days: Option<u32>,
    /// With `expiry = "period_end"`: the instant every token stops counting (RFC 3339).
    #[serde(default)]
    pub period_end: Option<DateTime<Utc>>,
    /// PostgreSQL: whether placing or revoking waits for its commit to reach the disk before
    /// answering (default false: a vote acknowledged in the last moments before a database crash
    /// may be lost whole, never half; the account's lock is not held during the disk flush).
    #[serde(default)]
    pub synchronous_commit: bool,
    /// Seconds between two expiry sweeps of a replica (`app::vote_expiry`): an expired token
    /// leaves its report's `votes_count` at the first sweep after it expires; 0 turns the sweep
    /// off (`citizen-api expire-votes` runs one).
    #[serde(default = "default_expiry_sweep_seconds")]
    pub expiry_sweep_seconds: u32,
}

fn default_expiry_sweep_seconds() -> u32 {
    60
}

impl VoteSettings {
    pub fn pool(&self) -> VotePool {
        VotePool {
            max_count: self.max_count,
        }
    }

    /// The expiry rule, or what is missing for it (naming the key).
    pub fn rule(&self) -> Result<ExpiryRule<DateTime<Utc>>, String> {
        match (self.expiry, self.expiry_days, self.period_end) {
            (Expiry::Never, _, _) => Ok(ExpiryRule::Never),
            (Expiry::Days, Some(days), _) if days > 0 => Ok(ExpiryRule::DaysAfterPlacing(days)),
            (Expiry::Days, _, _) => {
                Err("votes.expiry = \"days\" needs votes.expiry_days >= 1".into())
            }
            (Expiry::PeriodEnd, _, Some(end)) => Ok(ExpiryRule::PeriodEnd(end)),
            (Expiry::PeriodEnd, _, None) => {
                Err("votes.expiry = \"period_end\" needs votes.period_end".into())
            }
        }
    }

    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.max_count == 0 {
            return Err("votes.max_count must be at least 1".into());
        }
        self.rule().map(drop)
    }
}
