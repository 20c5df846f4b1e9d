//! `citizen-api migrate` on a database that lacks an extension the migrations use: as the
//! service's own role (no superuser, as in production) it stops before migrating and names the
//! extension with the command a database owner runs; as a superuser (a local database) it
//! creates the extension, as the administrator would.

use std::process::Command;

use sqlx::{Connection, Executor, PgConnection};

/// Runs the binary's `migrate` against `url`: (success, stderr + stdout).
fn migrate(url: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citizen-api"))
        .arg("migrate")
        .env("CITIZEN_API__DATABASE__URL", url)
        .env("CITIZEN_API__TELEMETRY__FORMAT", "pretty")
        .output()
        .expect("run citizen-api migrate");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    (out.status.success(), text)
}

async fn exec(url: &str, sql: &str) {
    let mut conn = PgConnection::connect(url).await.unwrap();
    conn.execute(sql).await.unwrap();
    conn.close().await.unwrap();
}

/// `url` with `user` in place of its user (and no password: the test server trusts).
fn as_user(url: &str, user: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    format!("{scheme}://{user}@{host}")
}

#[tokio::test]
async fn migrate_names_a_missing_extension_and_the_command_that_creates_it() {
    let Some(db) = test_support::postgres("migrate_ext").await else {
        return;
    };
    let role = format!("cstest_migrator_{}", &db.name[db.name.len() - 8..]);
    exec(&db.url, "DROP EXTENSION pg_trgm").await;
    exec(
        &db.url,
        &format!(
            "CREATE ROLE {role} LOGIN; GRANT CREATE ON DATABASE {} TO {role}",
            db.name
        ),
    )
    .await;
    let service = as_user(&db.url, &role);

    let (ok, text) = migrate(&service);
    assert!(!ok, "{text}");
    assert!(
        text.contains("extension pg_trgm is missing")
            && text.contains("CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;")
            && text.contains(&db.name),
        "{text}"
    );
    assert!(
        !text.contains("gin_trgm_ops"),
        "stopped before migrating: {text}"
    );

    // Installed, but outside `public`, where the migrations look for its operator classes.
    exec(
        &db.url,
        "CREATE SCHEMA ext; CREATE EXTENSION pg_trgm WITH SCHEMA ext",
    )
    .await;
    let (ok, text) = migrate(&service);
    assert!(!ok, "{text}");
    assert!(
        text.contains("ALTER EXTENSION pg_trgm SET SCHEMA public;"),
        "{text}"
    );

    exec(&db.url, "ALTER EXTENSION pg_trgm SET SCHEMA public").await;
    let (ok, text) = migrate(&service);
    assert!(ok, "{text}");
    assert!(text.contains("migrations applied"), "{text}");

    // A superuser on a database without the extension creates it and migrates.
    let Some(local) = test_support::postgres("migrate_su").await else {
        return;
    };
    exec(&local.url, "DROP EXTENSION pg_trgm").await;
    let (ok, text) = migrate(&local.url);
    assert!(ok, "{text}");

    let admin = test_support::admin_url();
    exec(&admin, &format!("DROP DATABASE {} WITH (FORCE)", db.name)).await;
    exec(&admin, &format!("DROP ROLE {role}")).await;
}
