//! `POST open311/v2/requests.{format}`: an integrator files a request with its key
//! (docs/open311.md, "Filing"), through the filing use case of `POST /reports`: inside the
//! city, the limits, a rate per key, duplicate suggestions, the status event.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use domain::geo::{LocationParam, LonLat};
use domain::open311 as rules;
use domain::reports::check_address;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::format::{self, Format};
use super::{admitted, integrator, Open311, Refusal};
use crate::app::filing::{file_report_placed, Placement};
use crate::routes::AppState;
use crate::store::admin::Opened;
use crate::store::NewReport;

/// Longest `media_url` kept.
const MEDIA_URL_MAX_CHARS: usize = 2048;

/// The answer to a filing: the new request's id.
#[derive(Debug, Serialize, ToSchema)]
pub struct Filed {
    pub service_request_id: String,
    /// What the filer should know: the request is public.
    pub service_notice: String,
}

#[derive(Serialize)]
struct FiledXml<'a> {
    request: &'a [Filed],
}

/// The form of a filing (`application/x-www-form-urlencoded`; documentation).
#[derive(ToSchema)]
#[allow(dead_code)] // read by utoipa only
pub struct FilingForm {
    /// The integrator's key (`open311.api_keys`).
    api_key: String,
    /// A service's code (`services`).
    service_code: String,
    /// WGS84, inside the city; required (an `address_string` alone is refused).
    lat: f64,
    long: f64,
    /// The place in words (at most 200 characters), kept beside the point.
    address_string: Option<String>,
    /// 1–4 000 characters: the report's description, and its first line its title.
    #[schema(min_length = 1, max_length = 4000)]
    description: String,
    /// A photo's link (http or https, at most 2 048 characters): kept as a link, never fetched.
    media_url: Option<String>,
    /// Accepted and not kept (docs/privacy.md): the integrator keeps its filer's contact.
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    phone: Option<String>,
    device_id: Option<String>,
    account_id: Option<String>,
}

/// The fields of a filing as sent (a field sent twice is refused).
#[derive(Default)]
struct Fields {
    api_key: Option<String>,
    service_code: Option<String>,
    lat: Option<String>,
    long: Option<String>,
    address_string: Option<String>,
    description: Option<String>,
    media_url: Option<String>,
}

fn fields(format: Format, body: &[u8]) -> Result<Fields, Refusal> {
    let mut fields = Fields::default();
    for (name, value) in url::form_urlencoded::parse(body) {
        let slot = match name.as_ref() {
            "api_key" => &mut fields.api_key,
            "service_code" => &mut fields.service_code,
            "lat" => &mut fields.lat,
            "long" => &mut fields.long,
            "address_string" => &mut fields.address_string,
            "description" => &mut fields.description,
            "media_url" => &mut fields.media_url,
            // The contact fields, `attribute[…]` (no service has attributes), the
            // jurisdiction and anything else: not kept.
            _ => continue,
        };
        if slot.is_some() {
            return Err(Refusal::bad(format, format!("{name}: sent twice")));
        }
        *slot = Some(value.into_owned());
    }
    Ok(fields)
}

/// A coordinate's text, in its range.
fn coordinate(format: Format, name: &str, raw: &str, max: f64) -> Result<f64, Refusal> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && v.abs() <= max)
        .ok_or_else(|| Refusal::bad(format, format!("{name}: not a WGS84 coordinate")))
}

/// File a request (Open311), with an integrator's key.
#[utoipa::path(
    post, path = "/open311/v2/requests.{format}", tag = "open311", operation_id = "open311FileRequest",
    params(("format" = super::FormatName, Path, description = "The answer's format"), super::Jurisdiction),
    request_body(content_type = "application/x-www-form-urlencoded", content = FilingForm),
    responses(
        (status = 201, description = "The new request's id, as the one element of a list", content(([Filed] = "application/json"), (String = "text/xml"))),
        super::KeyedRefusals,
    )
)]
pub async fn file(
    state: web::Data<AppState>,
    open311: web::Data<Open311>,
    path: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let run = async {
        let format = admitted(&open311, &path, &request)?;
        let fields = fields(format, &body)?;
        let integrator = integrator(&open311, format, fields.api_key.as_deref())?;
        let new = report(&state, format, &fields)?;
        let categories = super::requests::categories(&state, format).await?;
        let category = fields
            .service_code
            .as_deref()
            .map(str::trim)
            .and_then(|code| Uuid::parse_str(code).ok())
            .filter(|id| categories.contains_key(id))
            .ok_or_else(|| Refusal::bad(format, "service_code: no such service"))?;
        if let Some(seconds) = open311
            .filings
            .check_named(integrator, std::time::Instant::now())
        {
            let mut refused = format::error(
                format,
                StatusCode::TOO_MANY_REQUESTS,
                &format!("too many filings with this key: retry in {seconds} s"),
            );
            refused
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            return Ok(refused);
        }
        let actor = format!("open311:{integrator}");
        let placement = Placement {
            category: Some(category),
            actor: Some(&actor),
        };
        let filed = file_report_placed(
            state.stores.issues.as_ref(),
            &new,
            placement,
            state.clock.now(),
            None,
        )
        .await
        .map_err(|err| Refusal::store(format, &err))?
        // The category went between the check and the filing.
        .ok_or_else(|| Refusal::bad(format, "service_code: no such service"))?;
        crate::routes::admin::duplicates::suggest(&state, Opened::Report(filed.id)).await;
        let answer = [Filed {
            service_request_id: filed.id.to_string(),
            service_notice: "Filed; the request and its status are public.".into(),
        }];
        Ok(format::answer(
            format,
            StatusCode::CREATED,
            &answer,
            "service_requests",
            &FiledXml { request: &answer },
        ))
    };
    run.await
        .unwrap_or_else(|refused: Refusal| refused.answer())
}

/// The report `fields` file, checked.
fn report(state: &AppState, format: Format, fields: &Fields) -> Result<NewReport, Refusal> {
    let description = fields
        .description
        .as_deref()
        .ok_or_else(|| Refusal::bad(format, "description: required"))?;
    rules::check_description(description).map_err(|e| Refusal::bad(format, e.to_string()))?;
    let (lat, long) = match (fields.lat.as_deref(), fields.long.as_deref()) {
        (Some(lat), Some(long)) => (
            coordinate(format, "lat", lat, 90.0)?,
            coordinate(format, "long", long, 180.0)?,
        ),
        _ if fields.address_string.is_some() => {
            return Err(Refusal::bad(
                format,
                "lat and long: required; an address_string alone is not resolved to a place",
            ))
        }
        _ => return Err(Refusal::bad(format, "lat and long: required")),
    };
    let point = LonLat { lon: long, lat };
    if !state.city.contains(point) {
        return Err(Refusal::bad(
            format,
            "REPORT_OUTSIDE_CITY: the point is outside the city",
        ));
    }
    let address = match fields.address_string.as_deref() {
        Some(raw) => check_address(raw).map_err(|e| Refusal::bad(format, e.to_string()))?,
        None => None,
    };
    let media_link = match fields.media_url.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(media_link(format, raw)?),
    };
    Ok(NewReport {
        id: Uuid::now_v7(),
        author: None,
        title: rules::title_of(description),
        description: description.to_owned(),
        location: Some(LocationParam {
            point,
            radius_m: None,
        }),
        address,
        media: Vec::new(),
        media_link,
    })
}

/// `media_url`: an http or https URL, at most [`MEDIA_URL_MAX_CHARS`].
fn media_link(format: Format, raw: &str) -> Result<String, Refusal> {
    let refused = || {
        Refusal::bad(
            format,
            format!("media_url: an http or https URL of at most {MEDIA_URL_MAX_CHARS} characters"),
        )
    };
    if raw.chars().count() > MEDIA_URL_MAX_CHARS {
        return Err(refused());
    }
    let url = url::Url::parse(raw).map_err(|_| refused())?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(refused());
    }
    Ok(url.to_string())
}
