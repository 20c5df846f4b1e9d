//! `GET open311/v2/discovery.{format}`: where the endpoint is and what it speaks.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::{admitted, Open311};

/// The GeoReport v2 specification this endpoint implements.
const SPECIFICATION: &str = "http://wiki.open311.org/GeoReport_v2";

/// `discovery`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Discovery {
    /// When the interface last changed.
    pub changeset: String,
    pub contact: String,
    pub key_service: String,
    pub endpoints: Vec<Endpoint>,
}

/// One endpoint.
#[derive(Debug, Serialize, ToSchema)]
pub struct Endpoint {
    pub specification: &'static str,
    /// The endpoint's base: absolute with `http.public_url`, else the path.
    pub url: String,
    pub changeset: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub formats: Vec<&'static str>,
}

/// The same in XML: `<endpoints><endpoint>…`, `<formats><format>…`.
#[derive(Serialize)]
struct DiscoveryXml<'a> {
    changeset: &'a str,
    contact: &'a str,
    key_service: &'a str,
    endpoints: EndpointsXml<'a>,
}

#[derive(Serialize)]
struct EndpointsXml<'a> {
    endpoint: Vec<EndpointXml<'a>>,
}

#[derive(Serialize)]
struct EndpointXml<'a> {
    specification: &'a str,
    url: &'a str,
    changeset: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    formats: FormatsXml<'a>,
}

#[derive(Serialize)]
struct FormatsXml<'a> {
    format: &'a [&'static str],
}

/// Service discovery (Open311).
///
/// The endpoint's URL (`<base>/open311/v2`), its formats and whom to contact; the path's
/// extension chooses JSON or XML.
#[utoipa::path(
    get, path = "/open311/v2/discovery.{format}", tag = "open311", operation_id = "open311Discovery",
    params(("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    responses(
        (status = 200, description = "The endpoints", content((Discovery = "application/json"), (String = "text/xml"))),
        super::Refusals,
    )
)]
pub async fn discovery(
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
) -> HttpResponse {
    let format = match admitted(&open311, &path, &request) {
        Ok(format) => format,
        Err(refused) => return refused.answer(),
    };
    let settings = &open311.settings;
    let formats = ["text/xml", "application/json"];
    let json = Discovery {
        changeset: settings.changeset.clone(),
        contact: settings.contact.clone(),
        key_service: settings.key_service.clone(),
        endpoints: vec![Endpoint {
            specification: SPECIFICATION,
            url: open311.endpoint.clone(),
            changeset: settings.changeset.clone(),
            kind: "production",
            formats: formats.to_vec(),
        }],
    };
    let xml = DiscoveryXml {
        changeset: &settings.changeset,
        contact: &settings.contact,
        key_service: &settings.key_service,
        endpoints: EndpointsXml {
            endpoint: vec![EndpointXml {
                specification: SPECIFICATION,
                url: &open311.endpoint,
                changeset: &settings.changeset,
                kind: "production",
                formats: FormatsXml { format: &formats },
            }],
        },
    };
    super::format::answer(format, StatusCode::OK, &json, "discovery", &xml)
}
