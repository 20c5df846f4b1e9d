//! The OpenAPI description, byte for byte as committed in docs/openapi/citizen-api.json: a change to
//! the interface is a reviewed diff of that file (`UPDATE_SNAPSHOTS=1` rewrites it).

#[test]
fn the_description_is_the_committed_one() {
    let document = serde_json::to_value(citizen_api::routes::openapi("/api/v1")).unwrap();
    test_support::snapshot::assert_openapi("citizen-api", &document);
}
