//! A news item as an editor writes it, through `POST /news` or an `import-news` file, and the
//! checks that make it a [`NewsDraft`].

use chrono::{DateTime, Utc};
use domain::geo::LonLat;
use domain::i18n::Message;
use domain::news::{check_text, DESCRIPTION_MAX_CHARS, ITEMS_MAX, TITLE_MAX_CHARS, URL_MAX_CHARS};
use serde::Deserialize;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::store::news::NewsDraft;

/// A GeoJSON Point in WGS84 as sent.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PointInput {
    /// `Point`.
    #[serde(rename = "type")]
    #[schema(example = "Point")]
    pub kind: String,
    /// Longitude, latitude.
    #[schema(example = json!([14.4213, 50.0875]))]
    pub coordinates: [f64; 2],
}

/// A news item as an editor writes it (create, and update, which replaces every field).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsItemInput {
    /// Only in an `import-news` file: the id to create or replace (so a file can be imported
    /// again); refused by the API.
    #[serde(default)]
    #[schema(ignore)]
    pub id: Option<Uuid>,
    /// 1–256 characters.
    #[schema(min_length = 1, max_length = 256)]
    pub title: String,
    /// At most 20 000 characters.
    #[serde(default)]
    #[schema(max_length = 20000)]
    pub description: String,
    /// An `http(s)` address of the picture (for example a `public_url` of an uploaded file).
    #[serde(default)]
    #[schema(max_length = 2048)]
    pub image: Option<String>,
    /// The publication date; the time of the request when absent.
    #[serde(default)]
    pub date: Option<DateTime<Utc>>,
    #[serde(default)]
    pub location: Option<PointInput>,
    /// Category ids (at most 20); each must exist.
    #[serde(default)]
    #[schema(max_items = 20)]
    pub categories: Vec<Uuid>,
}

fn invalid(message: Message) -> ApiError {
    ApiError::validation(message)
}

/// An `http(s)` URL of at most [`URL_MAX_CHARS`] characters.
pub fn check_url(field: &'static str, url: &str) -> Result<(), ApiError> {
    let host_and_path = url.split_once("://").and_then(|(scheme, rest)| {
        (scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http"))
            .then_some(rest)
    });
    let ok = host_and_path.is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
        && url.chars().count() <= URL_MAX_CHARS
        && !url.chars().any(char::is_whitespace);
    if ok {
        Ok(())
    } else {
        Err(invalid(
            Message::new("news-url-invalid").arg("field", field),
        ))
    }
}

/// A GeoJSON point as coordinates.
pub fn check_point(point: &PointInput) -> Result<LonLat, ApiError> {
    let [lon, lat] = point.coordinates;
    if point.kind != "Point" {
        return Err(invalid(Message::new("news-location-invalid")));
    }
    LonLat::new(lon, lat).map_err(|_| invalid(Message::new("news-location-invalid")))
}

/// The texts of an editor's news item or project: a title of 1 to [`TITLE_MAX_CHARS`], a
/// description of at most [`DESCRIPTION_MAX_CHARS`].
pub fn check_texts(title: &str, description: &str) -> Result<(), ApiError> {
    check_text("title", title, true, TITLE_MAX_CHARS).map_err(invalid)?;
    check_text("description", description, false, DESCRIPTION_MAX_CHARS).map_err(invalid)
}

/// At most [`ITEMS_MAX`] entries of the list `field`.
pub fn check_items(field: &'static str, count: usize) -> Result<(), ApiError> {
    if count > ITEMS_MAX {
        return Err(invalid(
            Message::new("news-too-many")
                .arg("field", field)
                .arg("max", ITEMS_MAX),
        ));
    }
    Ok(())
}

impl NewsItemInput {
    /// Checks every field; `date` defaults to `now`.
    pub fn into_draft(self, now: DateTime<Utc>) -> Result<NewsDraft, ApiError> {
        check_texts(&self.title, &self.description)?;
        if let Some(image) = &self.image {
            check_url("image", image)?;
        }
        check_items("categories", self.categories.len())?;
        let location = self.location.as_ref().map(check_point).transpose()?;
        let mut categories = self.categories;
        categories.sort();
        categories.dedup();
        Ok(NewsDraft {
            title: self.title.trim().to_owned(),
            description: self.description,
            image: self.image.map(|i| i.trim().to_owned()),
            date: self.date.unwrap_or(now),
            location,
            categories,
        })
    }
}
