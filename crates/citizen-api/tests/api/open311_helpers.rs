//! What the Open311 suites share (tests/api/open311*.rs): reads in either format, the standard's
//! error array, the schema of our own (docs/open311.schema.json) every JSON answer is checked
//! against, an XML list read as maps to compare with its JSON twin, and an app with
//! integrators' keys.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use reqwest::header::CONTENT_TYPE;
use serde::Deserialize;
use serde_json::{json, Value};
use test_support::http::header;
use test_support::Backend;

use crate::helpers::TestApp;

/// The integrator key of the test apps ([`spawn_keyed`]).
pub const KEY: &str = "georeport-test-key-0123456789";
/// Another integrator's.
pub const OTHER_KEY: &str = "other-integrator-key-9876543210";

/// The service with two integrators' keys (`georeport`, `other`), on a fresh database.
pub async fn spawn_keyed(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "citizen").await?);
    Some(
        crate::helpers::spawn_on(db, |s| {
            s.open311.api_keys.insert("georeport".into(), KEY.into());
            s.open311.api_keys.insert("other".into(), OTHER_KEY.into());
        })
        .await,
    )
}

/// GET `path` under the base path: status, `Content-Type` and body text.
pub async fn get(app: &TestApp, path: &str) -> (u16, String, String) {
    let response = app.get_response(path).await;
    let status = response.status().as_u16();
    let content_type = header(&response, CONTENT_TYPE).unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}

pub async fn get_json(app: &TestApp, path: &str) -> (u16, Value) {
    let (status, content_type, body) = get(app, path).await;
    assert_eq!(content_type, "application/json; charset=utf-8", "{path}");
    (status, serde_json::from_str(&body).unwrap())
}

pub async fn get_xml(app: &TestApp, path: &str) -> (u16, String) {
    let (status, content_type, body) = get(app, path).await;
    assert_eq!(content_type, "text/xml; charset=utf-8", "{path}");
    assert!(
        body.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"),
        "{body}"
    );
    (status, body)
}

/// The error array of an answer: `[{code, description}]` with the status as code.
pub fn assert_open311_error(status: u16, body: &Value, expected: u16) {
    assert_eq!(status, expected, "{body}");
    assert_schema("errors", body);
    let errors = body.as_array().expect("an array of errors");
    assert_eq!(errors.len(), 1, "{body}");
    assert_eq!(errors[0]["code"], expected, "{body}");
    assert!(
        errors[0]["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty()),
        "{body}"
    );
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct XmlErrors {
    error: Vec<XmlError>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct XmlError {
    code: u16,
    description: String,
}

pub fn assert_xml_error(status: u16, body: &str, expected: u16) {
    assert_eq!(status, expected, "{body}");
    let errors: XmlErrors = quick_xml::de::from_str(body).unwrap();
    assert_eq!(errors.error.len(), 1, "{body}");
    assert_eq!(errors.error[0].code, expected, "{body}");
}

/// docs/open311.schema.json, read once.
fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/open311.schema.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

/// `value` is valid against the schema's `#/$defs/<def>`.
pub fn assert_schema(def: &str, value: &Value) {
    let schema = schema();
    let one = json!({
        "$schema": schema["$schema"],
        "$defs": schema["$defs"],
        "$ref": format!("#/$defs/{def}"),
    });
    let validator = jsonschema::validator_for(&one).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{def}: {errors:?} in {value}");
}

/// An XML list (`<service_requests><request>…`, `<service_requests_updates><request_update>…`)
/// as one map of element to text per item.
#[derive(Debug, Deserialize)]
pub struct XmlList {
    #[serde(default, alias = "request_update")]
    pub request: Vec<BTreeMap<String, String>>,
}

/// `xml`'s items, and that they hold what the JSON array `json` holds, field for field
/// (numbers compared as numbers).
pub fn assert_same_list(json: &Value, xml: &str) {
    let parsed: XmlList = quick_xml::de::from_str(xml).unwrap();
    let items = json.as_array().expect("a bare array");
    assert_eq!(parsed.request.len(), items.len(), "{xml}\n{json}");
    for (x, j) in parsed.request.iter().zip(items) {
        let j = j.as_object().unwrap();
        assert_eq!(
            x.keys().collect::<Vec<_>>(),
            j.keys().collect::<Vec<_>>(),
            "the same fields"
        );
        for (field, value) in j {
            let text = &x[field];
            match value {
                Value::Number(n) => {
                    assert_eq!(text.parse::<f64>().ok(), n.as_f64(), "{field}")
                }
                Value::String(s) => assert_eq!(text, s, "{field}"),
                other => panic!("{field}: {other} is neither text nor a number"),
            }
        }
    }
}

/// `GET` the JSON and the XML of `path` (without its extension, with its query) and check they
/// agree and the JSON is valid against `def`: the JSON.
pub async fn get_both(app: &TestApp, path: &str, query: &str, def: &str) -> Value {
    let (status, json) = get_json(app, &format!("{path}.json{query}")).await;
    assert_eq!(status, 200, "{path}{query}: {json}");
    assert_schema(def, &json);
    let (status, xml) = get_xml(app, &format!("{path}.xml{query}")).await;
    assert_eq!(status, 200, "{path}{query}: {xml}");
    assert_same_list(&json, &xml);
    json
}

/// `POST` a form to `path` under the base path: status, `Content-Type` and body text.
pub async fn post_form(app: &TestApp, path: &str, form: &[(&str, &str)]) -> (u16, String, String) {
    let body = serde_urlencoded::to_string(form).unwrap();
    let response = app
        .http
        .post(format!("{}{path}", app.base))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = header(&response, CONTENT_TYPE).unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}
