//! `GET open311/v2/services.{format}` and `services/{code}.{format}`: one service per report
//! category (docs/open311.md).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{admitted, Open311};
use crate::routes::AppState;
use crate::store::Category;

/// A service: a report category.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Service {
    /// The category's id.
    pub service_code: String,
    /// The category's name.
    pub service_name: String,
    /// The category's name too: categories have no description of their own.
    pub description: String,
    /// Whether the service has attributes: never (docs/open311.md).
    pub metadata: bool,
    /// `realtime`: a request is filed at once and answered with its id.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Empty.
    pub keywords: String,
    /// Empty.
    pub group: String,
}

impl From<Category> for Service {
    fn from(category: Category) -> Self {
        Self {
            service_code: category.id.to_string(),
            service_name: category.name.clone(),
            description: category.name,
            metadata: false,
            kind: "realtime",
            keywords: String::new(),
            group: String::new(),
        }
    }
}

#[derive(Serialize)]
struct ServicesXml<'a> {
    service: &'a [Service],
}

/// A service's definition: its attributes, of which there are none.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceDefinition {
    pub service_code: String,
    pub attributes: Vec<String>,
}

#[derive(Serialize)]
struct DefinitionXml<'a> {
    service_code: &'a str,
    attributes: (),
}

/// The services (Open311): one per report category.
#[utoipa::path(
    get, path = "/open311/v2/services.{format}", tag = "open311", operation_id = "open311Services",
    params(("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    responses(
        (status = 200, description = "Every category as a service, by name, the default last", content(([Service] = "application/json"), (String = "text/xml"))),
        super::Refusals,
    )
)]
pub async fn services(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
) -> HttpResponse {
    let format = match admitted(&open311, &path, &request) {
        Ok(format) => format,
        Err(refused) => return refused.answer(),
    };
    match state.stores.categories.categories().await {
        Ok(categories) => {
            let services: Vec<Service> = categories.into_iter().map(Service::from).collect();
            super::format::answer(
                format,
                StatusCode::OK,
                &services,
                "services",
                &ServicesXml { service: &services },
            )
        }
        Err(err) => super::unavailable(format, &err),
    }
}

/// A service's definition (Open311): no service has attributes.
#[utoipa::path(
    get, path = "/open311/v2/services/{service_code}.{format}", tag = "open311", operation_id = "open311ServiceDefinition",
    params(("service_code" = String, Path, description = "A service's code"),
           ("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    responses(
        (status = 200, description = "The definition: no attributes", content((ServiceDefinition = "application/json"), (String = "text/xml"))),
        super::Refusals,
    )
)]
pub async fn definition(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<(String, String)>,
    request: HttpRequest,
) -> HttpResponse {
    let (code, extension) = path.into_inner();
    let format = match admitted(&open311, &extension, &request) {
        Ok(format) => format,
        Err(refused) => return refused.answer(),
    };
    let categories = match state.stores.categories.categories().await {
        Ok(categories) => categories,
        Err(err) => return super::unavailable(format, &err),
    };
    let known = Uuid::parse_str(&code)
        .ok()
        .is_some_and(|id| categories.iter().any(|c| c.id == id));
    if !known {
        return super::format::error(format, StatusCode::NOT_FOUND, "no such service_code");
    }
    super::format::answer(
        format,
        StatusCode::OK,
        &ServiceDefinition {
            service_code: code.clone(),
            attributes: Vec::new(),
        },
        "service_definition",
        &DefinitionXml {
            service_code: &code,
            attributes: (),
        },
    )
}
