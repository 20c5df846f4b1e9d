//! A service of the platform under test: built on a clock of the test's own and served on a
//! thread of its own, and the dev tokens it accepts.

use std::sync::Arc;
use std::time::Duration;

use service_kit::auth::{mint_dev_token, AuthSettings, DevTokenRequest};
use service_kit::clock::Clock;
use service_kit::startup::{BuildOptions, ServiceApp};

use crate::app_thread::{spawn_app_thread, AppThread};

/// The service `A` built with `settings` on `clock` ([`ServiceApp::build_with`]) and served on a
/// runtime and thread of its own ([`spawn_app_thread`]) until the returned [`AppThread`] is
/// dropped; `started(&app)` (its port, handles the test keeps, …) is handed back to the test.
pub async fn spawn_service<A, T>(
    settings: A::Settings,
    clock: Arc<dyn Clock>,
    started: impl FnOnce(&A) -> T + Send + 'static,
) -> (T, AppThread)
where
    A: ServiceApp + 'static,
    A::Settings: Send + 'static,
    T: Send + 'static,
{
    spawn_app_thread(
        move || async move {
            let options = BuildOptions { clock: Some(clock) };
            A::build_with(&settings, options).await
        },
        started,
        |app: A, stopped| app.run_until(stopped),
    )
    .await
}

/// A dev token for `subject` with `scopes` (no roles, client, e-mail or locale), valid for
/// `ttl`, as a service with `auth` accepts it.
pub fn dev_token(auth: &AuthSettings, subject: &str, scopes: &[&str], ttl: Duration) -> String {
    let request = DevTokenRequest {
        subject: subject.into(),
        scopes: scopes.iter().map(|s| s.to_string()).collect(),
        roles: Vec::new(),
        client_id: None,
        email: None,
        locale: None,
        ttl,
    };
    mint_dev_token(auth, &request).expect("dev token")
}

/// What every service's tests set on its settings: a free port on 127.0.0.1 with two workers and a
/// short shutdown grace, and `database_url`, migrated on start, with a pool of four.
pub fn under_test(
    http: &mut service_kit::settings::HttpSettings,
    database: &mut service_kit::db::DatabaseSettings,
    database_url: &str,
) {
    http.host = "127.0.0.1".into();
    http.port = 0;
    http.workers = 2;
    http.shutdown_grace_seconds = 1;
    database.url = database_url.to_owned().into();
    database.migrate_on_start = true;
    database.max_connections = 4;
}
