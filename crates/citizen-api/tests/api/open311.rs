//! The Open311 GeoReport v2 facade (docs/open311.md), its first part: discovery and the
//! services (one per report category) in JSON and XML, the same content in both; the
//! jurisdiction rule; the standard's error array in the format asked for; public caching and any
//! origin; `open311.enabled = false`.

use reqwest::header::{ACCESS_CONTROL_ALLOW_ORIGIN, ETAG};
use serde::Deserialize;
use serde_json::json;
use test_support::http::{header, send_if_none_match};
use test_support::on_both_backends;

use crate::helpers::TestApp;
use crate::open311_helpers::{
    assert_open311_error, assert_schema, assert_xml_error, get_json, get_xml,
};

on_both_backends!(crate::helpers::spawn_app;
    discovery_names_the_endpoint_in_both_formats,
    services_are_the_categories_in_both_formats,
    a_service_definition_has_no_attributes_and_an_unknown_code_is_404,
    the_jurisdiction_is_ours_absent_or_empty_and_anything_else_is_404,
    an_unknown_format_is_404_and_answers_are_cached_for_anyone,
);

#[derive(Debug, Deserialize)]
struct XmlDiscovery {
    changeset: String,
    endpoints: XmlEndpoints,
}

#[derive(Debug, Deserialize)]
struct XmlEndpoints {
    endpoint: Vec<XmlEndpoint>,
}

#[derive(Debug, Deserialize)]
struct XmlEndpoint {
    specification: String,
    url: String,
    #[serde(rename = "type")]
    kind: String,
    formats: XmlFormats,
}

#[derive(Debug, Deserialize)]
struct XmlFormats {
    format: Vec<String>,
}

async fn discovery_names_the_endpoint_in_both_formats(app: TestApp) {
    let (status, json) = get_json(&app, "/open311/v2/discovery.json").await;
    assert_eq!(status, 200, "{json}");
    assert_schema("discovery", &json);
    let endpoint = &json["endpoints"][0];
    assert_eq!(json["endpoints"].as_array().unwrap().len(), 1);
    assert_eq!(
        endpoint["specification"],
        "http://wiki.open311.org/GeoReport_v2"
    );
    assert_eq!(
        endpoint["url"], "/api/v1/open311/v2",
        "no public URL: the path"
    );
    assert_eq!(endpoint["type"], "production");
    assert_eq!(endpoint["formats"], json!(["text/xml", "application/json"]));
    assert_eq!(json["changeset"], endpoint["changeset"]);

    let (status, xml) = get_xml(&app, "/open311/v2/discovery.xml").await;
    assert_eq!(status, 200, "{xml}");
    let xml: XmlDiscovery = quick_xml::de::from_str(&xml).unwrap();
    assert_eq!(xml.changeset, json["changeset"].as_str().unwrap());
    let one = &xml.endpoints.endpoint[0];
    assert_eq!(xml.endpoints.endpoint.len(), 1);
    assert_eq!(
        one.specification,
        endpoint["specification"].as_str().unwrap()
    );
    assert_eq!(one.url, endpoint["url"].as_str().unwrap());
    assert_eq!(one.kind, "production");
    assert_eq!(one.formats.format, ["text/xml", "application/json"]);
}

#[derive(Debug, Deserialize)]
struct XmlServices {
    #[serde(default)]
    service: Vec<XmlService>,
}

#[derive(Debug, Deserialize)]
struct XmlService {
    service_code: String,
    service_name: String,
    description: String,
    metadata: bool,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    keywords: String,
    #[serde(default)]
    group: String,
}

async fn services_are_the_categories_in_both_formats(app: TestApp) {
    // A name XML must escape, and one JSON must.
    let roads = app.category("Silnice & <chodníky>", Some(5)).await;
    let lights = app.category("Veřejné \"osvětlení\"", None).await;
    let (status, json) = get_json(&app, "/open311/v2/services.json").await;
    assert_eq!(status, 200, "{json}");
    assert_schema("services", &json);
    let services = json.as_array().expect("a bare array");
    let categories = app.stores.categories.categories().await.unwrap();
    assert_eq!(services.len(), categories.len(), "one service per category");
    for (service, category) in services.iter().zip(&categories) {
        assert_eq!(service["service_code"], category.id.to_string());
        assert_eq!(service["service_name"], category.name);
        assert_eq!(service["description"], category.name);
        assert_eq!(service["metadata"], false);
        assert_eq!(service["type"], "realtime");
        assert_eq!(service["keywords"], "");
        assert_eq!(service["group"], "");
    }
    for created in [&roads, &lights] {
        assert!(
            services
                .iter()
                .any(|s| s["service_code"] == created.id.to_string()),
            "{json}"
        );
    }

    let (status, xml) = get_xml(&app, "/open311/v2/services.xml").await;
    assert_eq!(status, 200, "{xml}");
    assert!(
        xml.contains("<service_name>Silnice &amp; &lt;chodníky&gt;</service_name>"),
        "escaped once: {xml}"
    );
    let parsed: XmlServices = quick_xml::de::from_str(&xml).unwrap();
    assert_eq!(parsed.service.len(), services.len());
    for (x, j) in parsed.service.iter().zip(services) {
        assert_eq!(x.service_code, j["service_code"].as_str().unwrap());
        assert_eq!(x.service_name, j["service_name"].as_str().unwrap());
        assert_eq!(x.description, j["description"].as_str().unwrap());
        assert!(!x.metadata);
        assert_eq!(x.kind, "realtime");
        assert_eq!((x.keywords.as_str(), x.group.as_str()), ("", ""));
    }
}

async fn a_service_definition_has_no_attributes_and_an_unknown_code_is_404(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let path = format!("/open311/v2/services/{}.json", roads.id);
    let (status, json) = get_json(&app, &path).await;
    assert_eq!(status, 200, "{json}");
    assert_schema("service_definition", &json);
    assert_eq!(
        json,
        json!({"service_code": roads.id.to_string(), "attributes": []})
    );
    let (status, xml) = get_xml(&app, &format!("/open311/v2/services/{}.xml", roads.id)).await;
    assert_eq!(status, 200, "{xml}");
    assert!(
        xml.ends_with(&format!(
            "<service_definition><service_code>{}</service_code><attributes/></service_definition>",
            roads.id
        )),
        "{xml}"
    );
    for code in [
        "0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11".to_owned(),
        "not-a-code".to_owned(),
    ] {
        let (status, json) = get_json(&app, &format!("/open311/v2/services/{code}.json")).await;
        assert_open311_error(status, &json, 404);
        let (status, xml) = get_xml(&app, &format!("/open311/v2/services/{code}.xml")).await;
        assert_xml_error(status, &xml, 404);
    }
}

async fn the_jurisdiction_is_ours_absent_or_empty_and_anything_else_is_404(app: TestApp) {
    let ours = &app.settings.open311.jurisdiction_id;
    for query in [
        String::new(),
        "?jurisdiction_id=".to_owned(),
        format!("?jurisdiction_id={ours}"),
        format!("?jurisdiction_id={ours}&api_key=anything"),
    ] {
        for path in ["discovery", "services"] {
            let (status, body) = get_json(&app, &format!("/open311/v2/{path}.json{query}")).await;
            assert_eq!(status, 200, "{path}{query}: {body}");
        }
    }
    let (status, json) = get_json(
        &app,
        "/open311/v2/services.json?jurisdiction_id=other.example",
    )
    .await;
    assert_open311_error(status, &json, 404);
    let (status, xml) = get_xml(
        &app,
        "/open311/v2/services.xml?jurisdiction_id=other.example",
    )
    .await;
    assert_xml_error(status, &xml, 404);
    // Named twice: which one was meant is not known.
    let (status, json) = get_json(
        &app,
        &format!("/open311/v2/discovery.json?jurisdiction_id={ours}&jurisdiction_id=x"),
    )
    .await;
    assert_open311_error(status, &json, 400);
}

async fn an_unknown_format_is_404_and_answers_are_cached_for_anyone(app: TestApp) {
    for path in [
        "/open311/v2/services.csv",
        "/open311/v2/services.JSON",
        "/open311/v2/discovery.html",
    ] {
        let (status, json) = get_json(&app, path).await;
        assert_open311_error(status, &json, 404);
    }
    let response = app.get_response("/open311/v2/services.json").await;
    assert_eq!(
        header(&response, ACCESS_CONTROL_ALLOW_ORIGIN).as_deref(),
        Some("*")
    );
    let tag = header(&response, ETAG).expect("an ETag like the other public reads");
    let url = format!("{}/open311/v2/services.json", app.base);
    let again = send_if_none_match(app.http.get(&url), Some(&tag)).await;
    assert_eq!(again.status(), 304);
    // A new category is a new answer.
    app.category("Zeleň", None).await;
    let changed = send_if_none_match(app.http.get(&url), Some(&tag)).await;
    assert_eq!(changed.status(), 200);
}

/// `open311.enabled = false`: the facade's paths are the API's 404.
#[tokio::test]
async fn turned_off_the_facade_is_not_there() {
    let db = std::sync::Arc::new(
        test_support::database(test_support::Backend::Sqlite, "open311-off")
            .await
            .unwrap(),
    );
    let app = crate::helpers::spawn_on(db, |s| s.open311.enabled = false).await;
    let (status, body) = app.get("/open311/v2/services.json").await;
    crate::helpers::assert_error(status, &body, 404, "NOT_FOUND");
}
