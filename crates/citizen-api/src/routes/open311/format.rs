//! The two formats of every Open311 answer (GeoReport v2: the path's `.json` or `.xml`): JSON
//! through serde_json with bare arrays, XML through quick-xml's serde serializer under the
//! resource's root element, each text escaped exactly once; errors as `[{code, description}]`
//! (`<errors><error>…`) in the format asked for.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use serde::Serialize;

/// `Content-Type` of the JSON answers.
const JSON: &str = "application/json; charset=utf-8";
/// `Content-Type` of the XML answers.
const XML: &str = "text/xml; charset=utf-8";
/// Every XML answer starts so.
const XML_DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";

/// The format a path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Xml,
}

impl Format {
    /// `json` or `xml` (the path's extension), else `None`.
    pub fn of(extension: &str) -> Option<Self> {
        match extension {
            "json" => Some(Self::Json),
            "xml" => Some(Self::Xml),
            _ => None,
        }
    }
}

/// An answer: `json` as JSON, or `xml` (the same content shaped for XML: the list's wrapper
/// with one field per element name) under the root element `root`. Public reads: any origin
/// may read them (`Access-Control-Allow-Origin: *`).
pub fn answer<J: Serialize, X: Serialize>(
    format: Format,
    status: StatusCode,
    json: &J,
    root: &str,
    xml: &X,
) -> HttpResponse {
    let (body, content_type) = match format {
        Format::Json => (serde_json::to_string(json).map_err(|e| e.to_string()), JSON),
        Format::Xml => (
            quick_xml::se::to_string_with_root(root, xml)
                .map(|body| format!("{XML_DECLARATION}{body}"))
                .map_err(|e| e.to_string()),
            XML,
        ),
    };
    match body {
        Ok(body) => HttpResponse::build(status)
            .insert_header((header::CONTENT_TYPE, content_type))
            .insert_header((
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            ))
            .body(body),
        Err(err) => {
            tracing::error!(error = %err, "an Open311 answer could not be serialized");
            error(format, StatusCode::INTERNAL_SERVER_ERROR, "internal error")
        }
    }
}

/// One error of an error answer.
#[derive(Debug, Serialize)]
struct Error<'a> {
    code: u16,
    description: &'a str,
}

/// An error of the standard's error array, as documented (`[{code, description}]`).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // the documentation's shape of [`Error`]
pub struct Open311Error {
    /// The HTTP status.
    code: u16,
    description: String,
}

/// `<errors>` holds one `<error>`.
#[derive(Serialize)]
struct Errors<'a> {
    error: [Error<'a>; 1],
}

/// An error answer: `[{code, description}]` with `status` as `code`.
pub fn error(format: Format, status: StatusCode, description: &str) -> HttpResponse {
    let one = || Error {
        code: status.as_u16(),
        description,
    };
    let (body, content_type) = match format {
        Format::Json => (
            serde_json::to_string(&[one()]).unwrap_or_else(|_| "[]".to_owned()),
            JSON,
        ),
        Format::Xml => (
            quick_xml::se::to_string_with_root("errors", &Errors { error: [one()] })
                .map(|body| format!("{XML_DECLARATION}{body}"))
                .unwrap_or_else(|_| format!("{XML_DECLARATION}<errors/>")),
            XML,
        ),
    };
    let mut response = HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        ))
        .body(body);
    // The standard's error array, not the API's error body.
    response
        .extensions_mut()
        .insert(service_kit::http::OwnErrorBody);
    response
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;

    #[derive(Serialize)]
    struct Item {
        name: String,
    }

    #[derive(Serialize)]
    struct Items<'a> {
        item: &'a [Item],
    }

    fn text(response: HttpResponse) -> String {
        let body = actix_web::body::to_bytes(response.into_body());
        let bytes = futures::executor::block_on(body).unwrap_or_default();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    /// In XML text `&` and `<` (and `>`) are escaped, once; a quote needs no escape there.
    fn xml_text_is_escaped_once_and_json_arrays_are_bare() {
        let items = [Item {
            name: "Chodník & <obrubník> \"Na Příkopě\"".into(),
        }];
        let xml = text(answer(
            Format::Xml,
            StatusCode::OK,
            &items,
            "items",
            &Items { item: &items },
        ));
        assert_eq!(
            xml,
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<items><item><name>Chodník &amp; \
             &lt;obrubník&gt; \"Na Příkopě\"</name></item></items>"
        );
        let json = text(answer(
            Format::Json,
            StatusCode::OK,
            &items,
            "items",
            &Items { item: &items },
        ));
        assert_eq!(json, r#"[{"name":"Chodník & <obrubník> \"Na Příkopě\""}]"#);
    }

    #[test]
    fn errors_are_an_array_of_code_and_description_in_both_formats() {
        let json = text(error(
            Format::Json,
            StatusCode::NOT_FOUND,
            "no such <service>",
        ));
        assert_eq!(json, r#"[{"code":404,"description":"no such <service>"}]"#);
        let xml = text(error(
            Format::Xml,
            StatusCode::NOT_FOUND,
            "no such <service>",
        ));
        assert!(
            xml.ends_with(
                "<errors><error><code>404</code><description>no such &lt;service&gt;</description></error></errors>"
            ),
            "{xml}"
        );
    }

    #[test]
    fn only_json_and_xml_are_formats() {
        assert_eq!(Format::of("json"), Some(Format::Json));
        assert_eq!(Format::of("xml"), Some(Format::Xml));
        for other in ["JSON", "csv", "", "json "] {
            assert_eq!(Format::of(other), None, "{other:?}");
        }
    }
}
