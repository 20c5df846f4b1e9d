//! The scopes of citizen-api and their extractors ([`service_kit::auth::Scoped`]): 401 without a
//! valid token, 403 `FORBIDDEN` without the scope, both before the body or the query is read (so
//! a caller without the right learns nothing from validation answers).

use service_kit::auth::{Principal, ScopeRule, Scoped};
use service_kit::ApiError;

/// The admin report list and the reads of the officers' side.
pub const READ_SCOPE: &str = "cityuser:reports:read";
/// The workflow: status steps, moves, duplicates, statements, media deletion.
pub const MANAGE_SCOPE: &str = "cityuser:reports:manage";

/// Report categories and their officers.
pub const REPORT_CATEGORIES_MANAGE_SCOPE: &str = "cityuser:report-categories:manage";

/// The editors' scope: publish, change and delete news items.
pub const NEWS_MANAGE_SCOPE: &str = "cityuser:news:manage";

/// The editors' scope: create, change and delete projects.
pub const PROJECTS_MANAGE_SCOPE: &str = "cityuser:projects:manage";

/// Create, change and delete news categories (spec section 5).
pub const CATEGORIES_MANAGE_SCOPE: &str = "cityuser:news-categories:manage";

service_kit::scoped!(
    /// Holds `cityuser:news:manage` (news items).
    pub NewsEditor, NewsEditing: NEWS_MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds `cityuser:news-categories:manage` (news categories).
    pub CategoryEditor, CategoryEditing: CATEGORIES_MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds `cityuser:projects:manage` (projects).
    pub ProjectEditor, ProjectEditing: PROJECTS_MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds `cityuser:reports:read` or `cityuser:reports:manage` (the officers' reads).
    pub ReportReader, ReportReading: READ_SCOPE, MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds `cityuser:reports:manage` (the workflow on issues and reports, media deletion).
    pub ReportManager, ReportManaging: MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds `cityuser:report-categories:manage` (report categories and their officers).
    pub ReportCategoryManager, ReportCategoryManaging: REPORT_CATEGORIES_MANAGE_SCOPE
);
service_kit::scoped!(
    /// Holds any of the officers' scopes (the list of report categories).
    pub AnyOfficer, AnyOfficerRule: REPORT_CATEGORIES_MANAGE_SCOPE, READ_SCOPE, MANAGE_SCOPE
);

/// Holds `cityuser:news:manage` or `cityuser:projects:manage` (uploads of their pictures);
/// without either, the 403 names `cityuser:projects:manage`.
pub type MediaEditor = Scoped<MediaEditing>;

/// The rule of [`MediaEditor`].
#[derive(Debug)]
pub enum MediaEditing {}

impl ScopeRule for MediaEditing {
    const ANY_OF: &'static [&'static str] = &[NEWS_MANAGE_SCOPE, PROJECTS_MANAGE_SCOPE];

    fn check(principal: &Principal) -> Result<(), ApiError> {
        if principal.has_scope(NEWS_MANAGE_SCOPE) {
            Ok(())
        } else {
            principal.require_scope(PROJECTS_MANAGE_SCOPE)
        }
    }
}
