//! [`Scoped`]: the signed-in caller holding a scope (or one of several), one extractor for every
//! service. 401 without a valid token, 403 `FORBIDDEN` without the scope, both before the body
//! or the query is read, so a caller without the right learns nothing from validation answers.
//!
//! A service names its rules with [`scoped!`](crate::scoped):
//!
//! ```ignore
//! service_kit::scoped!(
//!     /// Holds `reports:manage`.
//!     pub ReportManager, ManageRule: "reports:manage"
//! );
//! async fn step(manager: ReportManager) -> Result<String, ApiError> {
//!     Ok(manager.0.subject)
//! }
//! ```

use std::fmt;
use std::marker::PhantomData;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use futures::future::LocalBoxFuture;

use super::{Auth, Principal};
use crate::error::ApiError;

/// What a [`Scoped`] caller must hold.
pub trait ScopeRule: 'static {
    /// The scopes of which the caller needs one.
    const ANY_OF: &'static [&'static str];

    /// 403 `FORBIDDEN` naming the scopes unless the principal holds one of [`Self::ANY_OF`].
    fn check(principal: &Principal) -> Result<(), ApiError> {
        principal.require_any_scope(Self::ANY_OF)
    }
}

/// The signed-in caller satisfying the rule `R` (see the module's description).
pub struct Scoped<R>(pub Principal, PhantomData<fn() -> R>);

impl<R> fmt::Debug for Scoped<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Scoped").field(&self.0).finish()
    }
}

impl<R> Clone for Scoped<R> {
    fn clone(&self) -> Self {
        Self(self.0.clone(), PhantomData)
    }
}

impl<R: ScopeRule> FromRequest for Scoped<R> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let auth = Auth::from_request(req, payload);
        Box::pin(async move {
            let Auth(principal) = auth.await?;
            R::check(&principal)?;
            Ok(Self(principal, PhantomData))
        })
    }
}

/// Declares a [`Scoped`] extractor `$name` and its rule `$rule`: the caller holds one of the
/// scopes given.
#[macro_export]
macro_rules! scoped {
    ($(#[$doc:meta])* $vis:vis $name:ident, $rule:ident: $($scope:expr),+ $(,)?) => {
        $(#[$doc])*
        $vis type $name = $crate::auth::Scoped<$rule>;

        #[doc = concat!("The rule of [`", stringify!($name), "`].")]
        #[derive(Debug)]
        $vis enum $rule {}

        impl $crate::auth::ScopeRule for $rule {
            const ANY_OF: &'static [&'static str] = &[$($scope),+];
        }
    };
}
