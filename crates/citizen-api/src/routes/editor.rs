//! Extractors of a signed-in caller holding a scope (or one of several): 401 without a valid
//! token, 403 `FORBIDDEN` without the scope, both before the body or the query is read (so a
//! caller without the right learns nothing from validation answers).

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use domain::i18n::Message;
use futures::future::LocalBoxFuture;
use service_kit::auth::{Auth, Principal};
use service_kit::ApiError;

/// The admin report list and the reads of the officers' side.
pub const READ_SCOPE: &str = "cityuser:reports:read";
/// The workflow: status steps, moves, duplicates, statements, media deletion.
pub const MANAGE_SCOPE: &str = "cityuser:reports:manage";

/// The editors' scope: publish, change and delete news items.
pub const NEWS_MANAGE_SCOPE: &str = "cityuser:news:manage";

/// The editors' scope: create, change and delete projects.
pub const PROJECTS_MANAGE_SCOPE: &str = "cityuser:projects:manage";

/// Create, change and delete news categories (spec section 5).
pub const CATEGORIES_MANAGE_SCOPE: &str = "cityuser:news-categories:manage";

/// 403 unless the token carries one of `scopes`.
pub fn require_any(principal: &Principal, scopes: &[&str]) -> Result<(), ApiError> {
    if scopes.iter().any(|s| principal.has_scope(s)) {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            Message::new("scope-required").arg("scope", scopes.join(" or ")),
        ))
    }
}

macro_rules! scoped {
    ($(#[$doc:meta])* $name:ident, |$principal:ident| $check:block) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name(pub Principal);

        impl FromRequest for $name {
            type Error = ApiError;
            type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

            fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
                let auth = Auth::from_request(req, payload);
                Box::pin(async move {
                    let Auth(principal) = auth.await.map_err(ApiError::from)?;
                    let $principal = &principal;
                    let checked: Result<(), ApiError> = $check;
                    checked?;
                    Ok($name(principal))
                })
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $($scope:expr),+) => {
        scoped!(
            $(#[$doc])* $name,
            |principal| { require_any(principal, &[$($scope),+]) }
        );
    };
}

scoped!(
    /// Holds `cityuser:news:manage` (news items).
    NewsEditor,
    NEWS_MANAGE_SCOPE
);
scoped!(
    /// Holds `cityuser:news-categories:manage` (news categories).
    CategoryEditor,
    CATEGORIES_MANAGE_SCOPE
);
scoped!(
    /// Holds `cityuser:projects:manage` (projects).
    ProjectEditor,
    PROJECTS_MANAGE_SCOPE
);

scoped!(
    /// Holds `cityuser:reports:read` or `cityuser:reports:manage` (the officers' report list).
    ReportReader,
    READ_SCOPE,
    MANAGE_SCOPE
);

scoped!(
    /// Holds `cityuser:news:manage` or `cityuser:projects:manage` (uploads of their pictures);
    /// without either, the 403 names `cityuser:projects:manage`.
    MediaEditor,
    |principal| {
        if principal.has_scope(NEWS_MANAGE_SCOPE) {
            Ok(())
        } else {
            principal.require_scope(PROJECTS_MANAGE_SCOPE)
        }
    }
);
