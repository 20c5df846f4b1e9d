//! The parameters of the routes.
//!
//! The path parameters: a struct per route pattern, read by `service_kit::extract::Path` (by
//! the names of the pattern, `{issue_id}`) and documented by `params(…)` (in camelCase,
//! `issueId`), so the annotation and the extractor cannot disagree. Values stay text; `id()`
//! reads a UUID and answers a text that is none with the 404 of an unknown one.
//!
//! The query parameters of the report lists, read by `service_kit::extract::Query` (`category`
//! and `status` repeat: `?status=open&status=accepted`). Values arrive as text and are checked
//! by [`ListParams::into_filter`], so a bad one is a 400 naming the parameter with the limits'
//! own explanation. Unknown parameters are ignored, a known one given twice (other than the
//! repeatable ones) is refused by the extractor.

use chrono::{DateTime, Utc};
use domain::geo::{parse_location, LocationParam};
use domain::i18n::Message;
use domain::limits::{self, LimitError, Page};
use domain::reports::{parse_statuses, Order};
use domain::text::Search;
use serde::Deserialize;
use service_kit::extract::parse_bool;
use service_kit::ApiError;
use utoipa::IntoParams;
use uuid::Uuid;

use super::not_found::{
    category_not_found, issue_not_found, news_category_not_found, news_item_not_found,
    project_not_found, reply_template_not_found, report_not_found,
};
use super::paging::instant;
use crate::store::ReportFilter;

/// Declares path parameters (see the module's description): each field's doc comment is its
/// description; `=> not_found` gives a struct of one id its `id()`.
macro_rules! path_params {
    ($(#[$doc:meta])* $name:ident { $($(#[$field_doc:meta])* $field:ident),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Deserialize, IntoParams)]
        #[into_params(parameter_in = Path, rename_all = "camelCase")]
        pub struct $name {
            $($(#[$field_doc])* pub $field: String,)+
        }
    };
    ($(#[$doc:meta])* $name:ident { $(#[$field_doc:meta])* $field:ident } => $not_found:path) => {
        path_params!($(#[$doc])* $name { $(#[$field_doc])* $field });

        impl $name {
            /// The id; a text that is no UUID names nothing, like an unknown id.
            pub fn id(&self) -> Result<Uuid, ApiError> {
                parse_id(&self.$field, $not_found)
            }
        }
    };
}

/// A path's id: a text that is no UUID names nothing (`not_found`, like an unknown id).
fn parse_id(raw: &str, not_found: fn() -> ApiError) -> Result<Uuid, ApiError> {
    raw.parse().map_err(|_| not_found())
}

path_params!(
    /// `/admin/issues/{issueId}/…`.
    IssuePath {
        /// The issue id (a UUID)
        issue_id
    } => issue_not_found
);
path_params!(
    /// `/reports/{reportId}…` and `/admin/reports/{reportId}/…`.
    ReportPath {
        /// The report id (a UUID)
        report_id
    } => report_not_found
);
path_params!(
    /// `/admin/reports/{reportId}/media/{mediaId}`.
    ReportMediaPath {
        /// The report id (a UUID)
        report_id,
        /// The file's media_id (a UUID)
        media_id,
    }
);
path_params!(
    /// `/admin/report-categories/{categoryId}…`.
    CategoryPath {
        /// The category id (a UUID)
        category_id
    } => category_not_found
);
path_params!(
    /// `/admin/report-categories/{categoryId}/officers/{subject}`.
    OfficerPath {
        /// The category id (a UUID)
        category_id,
        /// The officer's account id (token `sub`)
        subject,
    }
);

impl OfficerPath {
    /// The category's id (as [`CategoryPath::id`]).
    pub fn category(&self) -> Result<Uuid, ApiError> {
        parse_id(&self.category_id, category_not_found)
    }
}
path_params!(
    /// `/admin/reply-templates/{templateId}`.
    ReplyTemplatePath {
        /// The template id (a UUID)
        template_id
    } => reply_template_not_found
);
path_params!(
    /// `/news-categories/{categoryId}`.
    NewsCategoryPath {
        /// The category id
        category_id
    } => news_category_not_found
);
path_params!(
    /// `/news/{newId}`, read.
    NewsItemPath {
        /// The news item id (a UUID)
        new_id
    } => news_item_not_found
);
path_params!(
    /// `/news/{newId}`, written by an editor.
    EditedNewsItemPath {
        /// The news item id
        new_id
    } => news_item_not_found
);
path_params!(
    /// `/projects/{projectId}`, read.
    ProjectPath {
        /// The project id (a UUID)
        project_id
    } => project_not_found
);
path_params!(
    /// `/projects/{projectId}`, written by an editor.
    EditedProjectPath {
        /// The project id
        project_id
    } => project_not_found
);
path_params!(
    /// `/me/vote-tokens/{targetId}`.
    TargetPath {
        /// The report id
        target_id
    }
);

/// The parameters of `GET /reports`; the other report lists take a subset or a superset.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Page size.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100, default = 100)]
    pub limit: Option<String>,
    /// Rows to skip.
    #[param(value_type = Option<i32>, minimum = 0, maximum = 1000, default = 0)]
    pub offset: Option<String>,
    /// `longitude,latitude[,radius_m]` (WGS84): adds `distance` to each row; with a radius, only
    /// reports within it.
    #[param(example = "14.4213,50.0875,500")]
    pub location: Option<String>,
    /// Category ids (repeat the parameter for several); a row matches any of them.
    #[serde(default)]
    #[param(value_type = Option<Vec<Uuid>>)]
    pub category: Vec<String>,
    /// Issue states: open, moved, accepted, duplicate, resolved (repeat the parameter for
    /// several; moved issues are never listed).
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    pub status: Vec<String>,
    /// Search in title, description and report id, ignoring case and diacritics.
    #[param(min_length = 1, max_length = 200)]
    pub q: Option<String>,
    /// `date` (filing time, the default), `location` (needs `location`; rows without a location
    /// last) or `votes`.
    #[serde(rename = "orderBy")]
    #[param(pattern = "^(date|location|votes)$")]
    pub order_by: Option<String>,
    /// `asc` or `desc`; default `desc`, but `asc` (nearest first) for `orderBy=location`. Ties
    /// are ordered by id in the same direction.
    #[serde(rename = "orderDirection")]
    #[param(pattern = "^(asc|desc)$")]
    pub order_direction: Option<String>,
    /// Only reports filed at or after this instant (RFC 3339).
    #[serde(rename = "dateFrom")]
    #[param(value_type = Option<chrono::DateTime<chrono::Utc>>)]
    pub date_from: Option<String>,
    /// Only reports filed at or before this instant (RFC 3339).
    #[serde(rename = "dateTo")]
    #[param(value_type = Option<chrono::DateTime<chrono::Utc>>)]
    pub date_to: Option<String>,
    /// `true`: only reports with at least one photo; `false`: only reports without one. The
    /// photos of a report marked explicit count too, though public views show none of them.
    #[serde(rename = "hasPhoto")]
    #[param(value_type = Option<bool>)]
    pub has_photo: Option<String>,
}

impl ListParams {
    /// Validates every parameter into a filter.
    pub fn into_filter(self) -> Result<ReportFilter, LimitError> {
        let page = Page::parse(self.limit.as_deref(), self.offset.as_deref())?;
        let near = self.location.as_deref().map(location).transpose()?;
        let order = Order::parse(
            self.order_by.as_deref(),
            self.order_direction.as_deref(),
            near.is_some(),
        )?;
        let q = limits::parse_q(self.q.as_deref())?.map(Search::new);
        let categories = category_ids(&self.category)?;
        let statuses = parse_statuses(&self.status)?;
        let date_from = date("dateFrom", self.date_from.as_deref())?;
        let date_to = date("dateTo", self.date_to.as_deref())?;
        let has_photo = self
            .has_photo
            .as_deref()
            .map(|v| {
                parse_bool(v)
                    .ok_or_else(|| LimitError::new("hasPhoto", Message::new("has-photo-invalid")))
            })
            .transpose()?;
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
            has_photo,
            order,
            page,
        })
    }
}

/// `category`, repeated: category ids.
pub fn category_ids(values: &[String]) -> Result<Vec<Uuid>, LimitError> {
    values
        .iter()
        .map(|value| {
            value.trim().parse::<Uuid>().map_err(|_| {
                LimitError::new(
                    "category",
                    Message::new("category-id-invalid").arg("value", format!("{value:?}")),
                )
            })
        })
        .collect()
}

/// `location`: `longitude,latitude[,radius_m]`.
pub fn location(raw: &str) -> Result<LocationParam, LimitError> {
    parse_location(raw).map_err(|_| {
        LimitError::new(
            "location",
            Message::new("location-invalid").arg("value", format!("{raw:?}")),
        )
    })
}

/// An RFC 3339 date-time (`2026-01-31T12:00:00Z`, an offset instead of `Z` is fine).
/// An RFC 3339 instant parameter, when given.
pub fn date(
    parameter: &'static str,
    raw: Option<&str>,
) -> Result<Option<DateTime<Utc>>, LimitError> {
    let Some(raw) = raw else { return Ok(None) };
    let parsed = instant(raw.trim()).ok_or_else(|| {
        LimitError::new(
            parameter,
            Message::new("date-invalid")
                .arg("parameter", parameter)
                .arg("value", format!("{raw:?}")),
        )
    })?;
    Ok(Some(parsed))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use domain::reports::OrderBy;
    use service_kit::extract::parse_query;

    fn filter(query: &str) -> Result<ReportFilter, LimitError> {
        parse_query::<ListParams>(query).unwrap().into_filter()
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
        ] {
            let err = filter(query).unwrap_err();
            assert_eq!(err.parameter, parameter, "{query}");
        }
    }

    #[test]
    fn a_single_valued_parameter_given_twice_is_refused() {
        for parameter in [
            "limit",
            "offset",
            "location",
            "q",
            "orderBy",
            "orderDirection",
            "dateFrom",
            "dateTo",
        ] {
            let err =
                parse_query::<ListParams>(&format!("{parameter}=1&{parameter}=2")).unwrap_err();
            let message = err.message().unwrap();
            assert_eq!(message.key, "parameter-repeated", "{parameter}");
            assert_eq!(message.get("parameter"), Some(parameter));
        }
    }

    #[test]
    fn values_at_their_edges_pass() {
        let f = filter("limit=100&offset=1000&q=%C5%BE&location=14.4,50.1,1&orderBy=location&orderDirection=asc&dateFrom=2026-01-01T00:00:00%2B01:00&dateTo=2026-01-01T00:00:00%2B01:00").unwrap();
        assert_eq!((f.page.limit, f.page.offset), (100, 1000));
        assert_eq!(f.q.as_ref().and_then(Search::folded), Some("z"));
        assert_eq!(f.near.unwrap().radius_m, Some(1.0));
        assert_eq!(f.date_from, f.date_to);
        assert_eq!(
            f.date_from.unwrap().to_rfc3339(),
            "2025-12-31T23:00:00+00:00"
        );
    }
}
