//! The public list of error names.
//!
//! Every error response of every service is `{statusCode, name, userinfo}` where `name` is one of
//! these stable SCREAMING_SNAKE codes. Clients may switch on them, so a code is never renamed or
//! reused for another meaning; `tests` below pins the list. The OpenAPI descriptions list them too.

use serde::Serialize;

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = ($status:expr, $name:literal) ),+ $(,)?) => {
        /// A stable machine-readable error name with its HTTP status.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )+
        }

        impl ErrorCode {
            /// Every code, in the order of this list.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The name sent in the `name` field of the error body.
            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $name,)+ }
            }

            /// The HTTP status code sent with this error.
            pub const fn status(self) -> u16 {
                match self { $(ErrorCode::$variant => $status,)+ }
            }
        }
    };
}

error_codes! {
    // ---- generic codes shared by every service ----
    /// A query, path or body value is missing, malformed or out of its documented range.
    ValidationError = (400, "VALIDATION_ERROR"),
    /// The request body is not valid JSON or not of the expected shape.
    InvalidJson = (400, "INVALID_JSON"),
    /// No bearer token, or a token that is invalid, expired or not for this service.
    Unauthorized = (401, "UNAUTHORIZED"),
    /// The token is valid but lacks the scope the operation needs.
    Forbidden = (403, "FORBIDDEN"),
    /// No route matches the path.
    NotFound = (404, "NOT_FOUND"),
    /// The route exists but not for this HTTP method.
    MethodNotAllowed = (405, "METHOD_NOT_ALLOWED"),
    /// The request did not complete within the server's request timeout.
    RequestTimeout = (408, "REQUEST_TIMEOUT"),
    /// The request conflicts with the current state (a unique value already taken).
    Conflict = (409, "CONFLICT"),
    /// The request body exceeds the configured limit.
    PayloadTooLarge = (413, "PAYLOAD_TOO_LARGE"),
    /// The request body has a media type the endpoint does not accept.
    UnsupportedMediaType = (415, "UNSUPPORTED_MEDIA_TYPE"),
    /// The client sent too many requests.
    TooManyRequests = (429, "TOO_MANY_REQUESTS"),
    /// An unexpected server fault; details are in the server log, never in the response.
    InternalError = (500, "INTERNAL_ERROR"),
    /// A dependency (database, broker) is unavailable.
    ServiceUnavailable = (503, "SERVICE_UNAVAILABLE"),

    // ---- citizen-api (spec section 7) ----
    /// PATCH /me/notifications/read with invalid tags.
    InvalidNotificationTags = (400, "INVALID_NOTIFICATION_TAGS"),
    /// POST /reports without media where media are required.
    NoMedia = (400, "NO_MEDIA"),
    /// POST /reports, attachments too large in total.
    TotalMediaSizeTooLarge = (400, "TOTAL_MEDIA_SIZE_TOO_LARGE"),
    /// POST /reports, location unreadable.
    ReportInvalidLocation = (400, "REPORT_INVALID_LOCATION"),
    /// POST /reports, location outside the city polygon.
    ReportOutsideCity = (400, "REPORT_OUTSIDE_CITY"),
    /// POST /reports, CAPTCHA verification failed.
    CaptchaVerificationFailed = (403, "CAPTCHA_VERIFICATION_FAILED"),
    /// POST /reports with an `Idempotency-Key` whose first request is still running.
    IdempotencyKeyInUse = (409, "IDEMPOTENCY_KEY_IN_USE"),
    /// POST /reports with an `Idempotency-Key` already used for another form.
    IdempotencyKeyReused = (422, "IDEMPOTENCY_KEY_REUSED"),
    /// DELETE /me/notifications/webpush for an unknown endpoint.
    WebpushSubscriptionNotFound = (404, "WEBPUSH_SUBSCRIPTION_NOT_FOUND"),
    /// GET /notifications/webpush/public-key while the service sends no web push (no VAPID key).
    WebpushNotConfigured = (404, "WEBPUSH_NOT_CONFIGURED"),
    /// POST /notifications/email/unsubscribe with a token no e-mail subscription has.
    EmailSubscriptionNotFound = (404, "EMAIL_SUBSCRIPTION_NOT_FOUND"),
    /// GET /projects/{projectId} for an unknown project.
    ProjectNotFound = (404, "PROJECT_NOT_FOUND"),
    /// GET /news/{newId} for an unknown news item.
    NewsItemNotFound = (404, "NEWS_ITEM_NOT_FOUND"),
    /// A news category that does not exist.
    CategoryNotFound = (404, "CATEGORY_NOT_FOUND"),
    /// GET /reports/{reportId} (and its timeline) for an unknown report.
    ReportNotFound = (404, "REPORT_NOT_FOUND"),
    /// An officer's workflow step that the issue's state does not allow (accepting an issue
    /// that is not open, resolving one that is not accepted, moving a resolved one, …).
    IssueTransitionNotAllowed = (409, "ISSUE_TRANSITION_NOT_ALLOWED"),
    /// POST /me/vote-tokens on a target (report) that does not exist.
    VoteTargetNotFound = (404, "VOTE_TARGET_NOT_FOUND"),
    /// POST /me/vote-tokens with more tokens than the account has available; none is placed.
    NotEnoughVoteTokens = (409, "NOT_ENOUGH_VOTE_TOKENS"),

    // ---- platform-messages ----
    /// A message text with raw HTML or a link whose scheme is not http, https, mailto, tel or relative.
    UnsafeMessageText = (400, "UNSAFE_MESSAGE_TEXT"),
    /// A platform message that does not exist (for this client).
    MessageNotFound = (404, "MESSAGE_NOT_FOUND"),

    // ---- streets-api ----
    /// GET /streets/{streetId} for an unknown id or street number.
    StreetNotFound = (404, "STREET_NOT_FOUND"),

    // ---- citizen-api: news ----
    /// DELETE /news-categories/{categoryId} of a category that still has child categories.
    CategoryHasChildren = (409, "CATEGORY_HAS_CHILDREN"),
    // ---- citizen-api: admin ----
    /// An issue that does not exist, or that the officer may not see (another category).
    IssueNotFound = (404, "ISSUE_NOT_FOUND"),
    /// DELETE /admin/reports/{reportId}/media/{mediaId}: no such file on the report (or on a
    /// statement the officer may see).
    MediaNotFound = (404, "MEDIA_NOT_FOUND"),
    /// A report category still used by issues cannot be deleted.
    CategoryInUse = (409, "CATEGORY_IN_USE"),
    /// A reply template that does not exist, or that the officer may not see (another
    /// category).
    ReplyTemplateNotFound = (404, "REPLY_TEMPLATE_NOT_FOUND"),
    /// POST /admin/reply-templates in a category that holds the most templates already.
    TooManyReplyTemplates = (409, "TOO_MANY_REPLY_TEMPLATES"),
    // ---- notifications (citizen-api) ----
    /// POST /me/notifications/webpush with an endpoint that is not https on an allowed push
    /// service host.
    WebpushEndpointNotAllowed = (400, "WEBPUSH_ENDPOINT_NOT_ALLOWED"),
    /// POST /me/notifications/webpush with keys that are not a P-256 point and a 16-byte secret.
    InvalidWebpushKeys = (400, "INVALID_WEBPUSH_KEYS"),
    /// POST /me/notifications/email with a token that carries no `email` claim.
    EmailClaimMissing = (400, "EMAIL_CLAIM_MISSING"),
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_screaming_snake_and_statuses_are_errors() {
        let mut seen = HashSet::new();
        for code in ErrorCode::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "duplicate error name {name}");
            assert!(
                name.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{name} is not SCREAMING_SNAKE"
            );
            assert!(
                (400..600).contains(&code.status()),
                "{name} has status {}",
                code.status()
            );
        }
    }

    #[test]
    fn serde_name_matches_as_str() {
        for code in ErrorCode::ALL {
            let json = serde_json_like(code);
            assert_eq!(json, code.as_str());
        }
    }

    // serde_json is not a dependency of the domain crate; the derive must agree with as_str.
    fn serde_json_like(code: &ErrorCode) -> String {
        format!("{code:?}")
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                sep.into_iter()
                    .chain(std::iter::once(c.to_ascii_uppercase()))
            })
            .collect()
    }

    #[test]
    fn spec_codes_keep_their_statuses() {
        let expected = [
            ("INVALID_NOTIFICATION_TAGS", 400),
            ("NO_MEDIA", 400),
            ("TOTAL_MEDIA_SIZE_TOO_LARGE", 400),
            ("REPORT_INVALID_LOCATION", 400),
            ("REPORT_OUTSIDE_CITY", 400),
            ("CAPTCHA_VERIFICATION_FAILED", 403),
            ("WEBPUSH_SUBSCRIPTION_NOT_FOUND", 404),
            ("PROJECT_NOT_FOUND", 404),
            ("NEWS_ITEM_NOT_FOUND", 404),
            ("CATEGORY_NOT_FOUND", 404),
        ];
        for (name, status) in expected {
            let code = ErrorCode::ALL
                .iter()
                .find(|c| c.as_str() == name)
                .unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(code.status(), status, "{name}");
        }
    }
}
