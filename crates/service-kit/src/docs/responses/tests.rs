//! Each type documents exactly what the inline tuple it replaces did: the same route described
//! both ways gives the same `responses` object.

use serde_json::Value;
use utoipa::OpenApi;

use super::*;
use crate::ErrorBody;

#[utoipa::path(
    get,
    path = "/inline",
    responses(
        (status = 200, description = "OK"),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR`", body = ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`", body = ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`", body = ErrorBody),
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`", body = ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`", body = ErrorBody),
    )
)]
#[allow(dead_code)]
async fn inline() {}

#[utoipa::path(
    get,
    path = "/typed",
    responses(
        (status = 200, description = "OK"),
        InvalidJsonBody,
        Unauthorized,
        Forbidden,
        PayloadTooLarge,
        UnsupportedMediaType,
        ServiceUnavailable,
    )
)]
#[allow(dead_code)]
async fn typed() {}

#[utoipa::path(
    get,
    path = "/inline-worded",
    responses(
        (status = 401, description = "`UNAUTHORIZED`: a token was sent but is invalid", body = ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is over the JSON limit", body = ErrorBody),
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON", body = ErrorBody),
    )
)]
#[allow(dead_code)]
async fn inline_worded() {}

#[utoipa::path(
    get,
    path = "/typed-worded",
    responses(InvalidToken, OverJsonLimit, NotJson)
)]
#[allow(dead_code)]
async fn typed_worded() {}

#[utoipa::path(
    get,
    path = "/inline-application-json",
    responses(
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`", body = ErrorBody),
    )
)]
#[allow(dead_code)]
async fn inline_application_json() {}

#[utoipa::path(get, path = "/typed-application-json", responses(NotApplicationJson))]
#[allow(dead_code)]
async fn typed_application_json() {}

#[derive(OpenApi)]
#[openapi(paths(
    inline,
    typed,
    inline_worded,
    typed_worded,
    inline_application_json,
    typed_application_json
))]
struct Doc;

fn responses(doc: &Value, path: &str) -> Value {
    doc["paths"][path]["get"]["responses"].clone()
}

#[test]
fn the_types_document_what_the_tuples_did() {
    let doc = serde_json::to_value(Doc::openapi()).unwrap();
    for (inline, typed) in [
        ("/inline", "/typed"),
        ("/inline-worded", "/typed-worded"),
        ("/inline-application-json", "/typed-application-json"),
    ] {
        let expected = responses(&doc, inline);
        assert!(expected.is_object(), "{inline} documented");
        assert_eq!(responses(&doc, typed), expected, "{typed}");
        // The same text, to the byte (a JSON object's equality ignores the order of keys).
        assert_eq!(
            serde_json::to_string(&responses(&doc, typed)).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "{typed}"
        );
    }
    assert_eq!(
        responses(&doc, "/typed")["401"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ErrorBody"
    );
}
