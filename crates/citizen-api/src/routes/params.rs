//! The query parameters of the report lists, read from the raw query string because `category`
//! and `status` repeat (`?status=open&status=accepted`). Every value is checked here; a bad one
//! is a 400 naming the parameter. Unknown parameters are ignored, a known one given twice (other
//! than the repeatable ones) is refused.

use chrono::{DateTime, Utc};
use domain::geo::{parse_location, LocationParam};
use domain::i18n::Message;
use domain::limits::{self, LimitError, Page};
use domain::reports::{parse_statuses, Order};
use uuid::Uuid;

use crate::store::ReportFilter;

/// The list parameters (documentation; the handler reads the raw query string because
/// `category` and `status` repeat).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by utoipa only
pub struct ListParams {
    /// Page size.
    #[param(minimum = 1, maximum = 100, default = 100)]
    limit: Option<i32>,
    /// Rows to skip.
    #[param(minimum = 0, maximum = 1000, default = 0)]
    offset: Option<i32>,
    /// `longitude,latitude[,radius_m]` (WGS84): adds `distance` to each row; with a radius, only
    /// reports within it.
    #[param(example = "14.4213,50.0875,500")]
    location: Option<String>,
    /// Category ids (repeat the parameter for several); a row matches any of them.
    category: Option<Vec<Uuid>>,
    /// Issue states: open, moved, accepted, duplicate, resolved (repeat the parameter for
    /// several; moved issues are never listed).
    status: Option<Vec<String>>,
    /// Search in title, description and report id, ignoring case and diacritics.
    #[param(min_length = 1, max_length = 200)]
    q: Option<String>,
    /// `date` (filing time, the default), `location` (needs `location`; rows without a location
    /// last) or `votes`.
    #[param(rename = "orderBy", pattern = "^(date|location|votes)$")]
    order_by: Option<String>,
    /// `asc` or `desc`; default `desc`, but `asc` (nearest first) for `orderBy=location`. Ties
    /// are ordered by id in the same direction.
    #[param(rename = "orderDirection", pattern = "^(asc|desc)$")]
    order_direction: Option<String>,
    /// Only reports filed at or after this instant (RFC 3339).
    #[param(rename = "dateFrom")]
    date_from: Option<chrono::DateTime<chrono::Utc>>,
    /// Only reports filed at or before this instant (RFC 3339).
    #[param(rename = "dateTo")]
    date_to: Option<chrono::DateTime<chrono::Utc>>,
}

/// The parameters as sent, before validation.
#[derive(Debug, Default)]
pub struct RawListParams {
    pub limit: Option<String>,
    pub offset: Option<String>,
    pub location: Option<String>,
    pub category: Vec<String>,
    pub status: Vec<String>,
    pub q: Option<String>,
    pub order_by: Option<String>,
    pub order_direction: Option<String>,
    pub date_from: Option<String>,
    pub date_to: Option<String>,
}

impl RawListParams {
    /// Splits a query string into the known parameters.
    pub fn parse(query: &str) -> Result<Self, LimitError> {
        let mut raw = Self::default();
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            let value = value.into_owned();
            let slot = match key.as_ref() {
                "category" => {
                    raw.category.push(value);
                    continue;
                }
                "status" => {
                    raw.status.push(value);
                    continue;
                }
                "limit" => (&mut raw.limit, "limit"),
                "offset" => (&mut raw.offset, "offset"),
                "location" => (&mut raw.location, "location"),
                "q" => (&mut raw.q, "q"),
                "orderBy" => (&mut raw.order_by, "orderBy"),
                "orderDirection" => (&mut raw.order_direction, "orderDirection"),
                "dateFrom" => (&mut raw.date_from, "dateFrom"),
                "dateTo" => (&mut raw.date_to, "dateTo"),
                _ => continue,
            };
            let (field, name) = slot;
            if field.replace(value).is_some() {
                return Err(LimitError::new(
                    name,
                    Message::new("parameter-repeated").arg("parameter", name),
                ));
            }
        }
        Ok(raw)
    }

    /// Drops what `GET /me/reports` does not read (q, category, status, dateFrom, dateTo): they
    /// are neither checked nor applied there.
    pub fn own_list_only(mut self) -> Self {
        self.q = None;
        self.category.clear();
        self.status.clear();
        self.date_from = None;
        self.date_to = None;
        self
    }

    /// Validates every parameter into a filter.
    pub fn to_filter(&self) -> Result<ReportFilter, LimitError> {
        let page = Page::parse(self.limit.as_deref(), self.offset.as_deref())?;
        let near = self.location.as_deref().map(location).transpose()?;
        let order = Order::parse(
            self.order_by.as_deref(),
            self.order_direction.as_deref(),
            near.is_some(),
        )?;
        let q = limits::parse_q(self.q.as_deref())?.map(domain::text::fold);
        let categories = self
            .category
            .iter()
            .map(|c| {
                c.trim().parse::<Uuid>().map_err(|_| {
                    LimitError::new(
                        "category",
                        Message::new("category-id-invalid").arg("value", format!("{c:?}")),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let statuses = parse_statuses(&self.status)?;
        let date_from = date("dateFrom", self.date_from.as_deref())?;
        let date_to = date("dateTo", self.date_to.as_deref())?;
        if let (Some(from), Some(to)) = (date_from, date_to) {
            if from > to {
                return Err(LimitError::new(
                    "dateFrom",
                    Message::new("date-range-reversed"),
                ));
            }
        }
        Ok(ReportFilter {
            categories,
            statuses,
            q,
            near,
            date_from,
            date_to,
            order,
            page,
        })
    }
}

/// `location`: `longitude,latitude[,radius_m]`.
fn location(raw: &str) -> Result<LocationParam, LimitError> {
    parse_location(raw).map_err(|_| {
        LimitError::new(
            "location",
            Message::new("location-invalid").arg("value", format!("{raw:?}")),
        )
    })
}

/// An RFC 3339 date-time (`2026-01-31T12:00:00Z`, an offset instead of `Z` is fine).
fn date(parameter: &'static str, raw: Option<&str>) -> Result<Option<DateTime<Utc>>, LimitError> {
    let Some(raw) = raw else { return Ok(None) };
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| {
            LimitError::new(
                parameter,
                Message::new("date-invalid")
                    .arg("parameter", parameter)
                    .arg("value", format!("{raw:?}")),
            )
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use domain::reports::OrderBy;

    fn filter(query: &str) -> Result<ReportFilter, LimitError> {
        RawListParams::parse(query)?.to_filter()
    }

    #[test]
    fn repeated_lists_and_defaults() {
        let id = Uuid::nil();
        let f = filter(&format!(
            "category={id}&category={id}&status=open&status=resolved&x=1"
        ))
        .unwrap();
        assert_eq!(f.categories, vec![id, id]);
        assert_eq!(f.statuses.len(), 2);
        assert_eq!(f.page, Page::default());
        assert_eq!(f.order.by, OrderBy::Date);
        assert!(f.q.is_none() && f.near.is_none());
    }

    #[test]
    fn each_bad_value_names_its_parameter() {
        for (query, parameter) in [
            ("limit=0", "limit"),
            ("limit=101", "limit"),
            ("offset=1001", "offset"),
            ("offset=-1", "offset"),
            ("q=", "q"),
            ("location=14", "location"),
            ("location=200,50", "location"),
            ("orderBy=location", "orderBy"),
            ("orderDirection=up", "orderDirection"),
            ("category=abc", "category"),
            ("status=new", "status"),
            ("dateFrom=yesterday", "dateFrom"),
            ("dateTo=2026-01-01", "dateTo"),
            (
                "dateFrom=2026-02-01T00:00:00Z&dateTo=2026-01-01T00:00:00Z",
                "dateFrom",
            ),
            ("limit=1&limit=2", "limit"),
        ] {
            let err = filter(query).unwrap_err();
            assert_eq!(err.parameter, parameter, "{query}");
        }
    }

    #[test]
    fn values_at_their_edges_pass() {
        let f = filter("limit=100&offset=1000&q=%C5%BE&location=14.4,50.1,1&orderBy=location&orderDirection=asc&dateFrom=2026-01-01T00:00:00%2B01:00&dateTo=2026-01-01T00:00:00%2B01:00").unwrap();
        assert_eq!((f.page.limit, f.page.offset), (100, 1000));
        assert_eq!(f.q.as_deref(), Some("z"));
        assert_eq!(f.near.unwrap().radius_m, Some(1.0));
        assert_eq!(f.date_from, f.date_to);
        assert_eq!(
            f.date_from.unwrap().to_rfc3339(),
            "2025-12-31T23:00:00+00:00"
        );
    }
}
