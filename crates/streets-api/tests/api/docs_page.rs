//! The docs page (`/api/v1/docs/`) is in the binary, in a debug build too: a binary whose build
//! folder is gone (the checkout moved or renamed after `make run`, a target directory shared
//! between clones) still serves it. utoipa-swagger-ui's debug builds would read its files from
//! the build script's output folder under the target directory.

use std::time::Duration;
use test_support::process::{without_build_folders, ServiceProcess};

#[tokio::test]
async fn the_docs_page_is_served_when_the_build_folder_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let (binary, renamed) = without_build_folders(env!("CARGO_BIN_EXE_streets-api"), dir.path());
    let database = format!("sqlite://{}", dir.path().join("streets.db").display());
    let mut service = ServiceProcess::start(
        binary.to_str().unwrap(),
        "STREETS_API",
        &[("STREETS_API__DATABASE__URL".into(), database)],
    );
    service
        .wait_ready("/healthz", Duration::from_secs(30))
        .await;
    let client = reqwest::Client::new();
    for (path, expected) in [
        ("/api/v1/docs/", "swagger-ui"),
        ("/api/v1/docs", "swagger-ui"),
        ("/api/v1/docs/swagger-ui.css", ".swagger-ui"),
        ("/api/v1/docs/swagger-ui-bundle.js", "SwaggerUIBundle"),
        (
            "/api/v1/docs/swagger-initializer.js",
            "/api/v1/docs/openapi.json",
        ),
    ] {
        let response = client
            .get(format!("{}{path}", service.base))
            .send()
            .await
            .unwrap();
        let status = response.status();
        let body = response.text().await.unwrap();
        assert!(
            status == 200 && body.contains(expected),
            "{path}: {status}, {} bytes without {expected:?} (build folders renamed in the \
             copy: {renamed})",
            body.len()
        );
    }
    service.terminate(Duration::from_secs(10)).await;
}
