//! Committed snapshots of what a service describes of itself: a change to its OpenAPI
//! description is then a reviewed diff in the commit that makes it, and a refactoring that
//! should change nothing is proved to change nothing, byte for byte.

use std::path::Path;

/// [`assert_snapshot`] of a service's OpenAPI description against `docs/openapi/<service>.json`.
pub fn assert_openapi(service: &str, document: &serde_json::Value) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/openapi")
        .join(format!("{service}.json"));
    assert_snapshot(document, &committed);
}

/// Compares `document` (the service's OpenAPI description as JSON) with the committed file at
/// `path`, as pretty JSON with a final newline. With `UPDATE_SNAPSHOTS=1` it writes the file
/// instead (review the diff before committing it).
pub fn assert_snapshot(document: &serde_json::Value, path: &Path) {
    let mut text = serde_json::to_string_pretty(document).expect("a JSON value serializes");
    text.push('\n');
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(path, &text).expect("the snapshot is written");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != text {
        let first = committed
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(text.lines().count()));
        panic!(
            "{} differs from the served description from line {} on (committed {:?}, served \
             {:?}); if the change is meant, run the test with UPDATE_SNAPSHOTS=1 and commit the \
             file",
            path.display(),
            first + 1,
            committed.lines().nth(first).unwrap_or("<end>"),
            text.lines().nth(first).unwrap_or("<end>"),
        );
    }
}
