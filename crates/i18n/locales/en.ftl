# English texts of the citizen-services platform (the reference catalogue).
#
# Every message here must also exist in cs.ftl with the same $variables. Arguments that are
# numbers arrive as Fluent numbers, so plural forms can be selected with them.
# Keep the wording of texts that existed before localization: clients and tests compare some.

## Generic texts of the error codes (the `name` field of error bodies).

error-VALIDATION_ERROR = A value in the request is missing, malformed or out of range.
error-INVALID_JSON = The request body is not valid JSON.
error-UNAUTHORIZED = Authentication is missing or invalid.
error-FORBIDDEN = You are not allowed to do this.
error-NOT_FOUND = Not found.
error-METHOD_NOT_ALLOWED = This method is not allowed here.
error-REQUEST_TIMEOUT = The request took too long.
error-CONFLICT = The request conflicts with existing data.
error-PAYLOAD_TOO_LARGE = The request body is too large.
error-UNSUPPORTED_MEDIA_TYPE = The request body has an unsupported media type.
error-TOO_MANY_REQUESTS = Too many requests; try again later.
error-INTERNAL_ERROR = An unexpected error occurred; it has been logged.
error-SERVICE_UNAVAILABLE = The service is temporarily unavailable.
error-INVALID_NOTIFICATION_TAGS = The notification tags are invalid.
error-NO_MEDIA = The report has no photo or other media attached.
error-TOTAL_MEDIA_SIZE_TOO_LARGE = The attached media are too large in total.
error-REPORT_INVALID_LOCATION = The location of the report cannot be read.
error-REPORT_OUTSIDE_CITY = The location of the report is outside the city.
error-CAPTCHA_VERIFICATION_FAILED = The CAPTCHA verification failed.
error-IDEMPOTENCY_KEY_IN_USE = A request with this Idempotency-Key is still being processed; retry later.
error-IDEMPOTENCY_KEY_REUSED = This Idempotency-Key was already used for another request.
error-WEBPUSH_SUBSCRIPTION_NOT_FOUND = The web push subscription does not exist.
error-WEBPUSH_NOT_CONFIGURED = This service sends no web push notifications.
error-EMAIL_SUBSCRIPTION_NOT_FOUND = No e-mail subscription has this unsubscribe link.
error-PROJECT_NOT_FOUND = The project does not exist.
error-NEWS_ITEM_NOT_FOUND = The news item does not exist.
error-CATEGORY_NOT_FOUND = The category does not exist.
error-UNSAFE_MESSAGE_TEXT = The message text is not safe Markdown.
error-MESSAGE_NOT_FOUND = The message does not exist.
error-STREET_NOT_FOUND = The street does not exist.

## HTTP layer.

route-not-found = no route matches this path
method-not-allowed = this route does not accept the method
request-timeout = the request took too long
# $limit: the largest accepted body, in bytes (always given).
body-too-large = the request body is too large (at most { $limit } { $limit ->
        [one] byte
       *[other] bytes
    })
body-unreadable = the request body could not be read: { $reason }
json-syntax = the body is not valid JSON: { $reason }
json-content-type = expected a body with Content-Type: application/json
# A JSON value of the wrong shape; $field is the path of the value in the body.
invalid-body = the body field { $field } is invalid: { $reason }
invalid-body-shape = the body is not of its documented shape: { $reason }
invalid-query = the query parameter { $field } is invalid: { $reason }
invalid-path = the path parameter { $field } is invalid: { $reason }
unexpected-error = An unexpected error occurred; it has been logged.
temporarily-unavailable = The service is temporarily unavailable.
# $checks: the failing checks, e.g. "database, broker".
not-ready = not ready: { $checks }
database-not-migrated = the database schema is older than this version of { $service }; run `{ $service } migrate`

## Authentication and authorization.

scope-required = this operation requires the scope `{ $scope }`
token-missing = missing bearer token
token-wrong-scheme = the Authorization header must use the Bearer scheme
token-malformed = malformed token
token-algorithm = token algorithm not accepted
token-unknown-key = token signed with an unknown key
token-bad-signature = invalid token signature
token-expired = token expired
token-not-yet-valid = token not yet valid
token-wrong-issuer = token issuer not accepted
token-wrong-audience = token audience not accepted
token-critical-extension = token requires extensions (crit) that are not understood
token-missing-claim = token lacks the claim `{ $claim }`
token-invalid-claim = token claim `{ $claim }` is malformed
token-not-configured = token authentication is not configured
token-keys-unavailable = the signing keys of the identity provider are unavailable

## Query limits (domain::limits).

# $value is quoted and escaped already.
limit-not-integer = { $parameter } must be an integer, got { $value }
limit-not-number = { $parameter } must be a number, got { $value }
limit-out-of-range = { $parameter } must be between { $min } and { $max }, got { $value }
q-too-short = q must have at least { $min } { $min ->
        [one] character
       *[other] characters
    }
q-too-long = q must have at most { $max } { $max ->
        [one] character
       *[other] characters
    }

## Geography (domain::geo) and streets-api.

longitude-out-of-range = longitude must be a number between -180 and 180
latitude-out-of-range = latitude must be a number between -90 and 90
location-shape = location must be "longitude,latitude" or "longitude,latitude,radius"
location-radius = location radius must be a positive number of metres
radius-positive = radius must be greater than 0
radius-needs-point = radius needs longitude and latitude
longitude-needs-latitude = longitude needs latitude
latitude-needs-longitude = latitude needs longitude
street-not-found = no street "{ $id }"

## Platform messages (domain::messages, domain::markdown).

client-id-invalid = client_id must be 1 to { $max } characters of A-Z, a-z, 0-9, '.', '_' or '-', starting with a letter or digit
client-id-missing = client_id is required: give ?client_id= or use a token issued to a client application
text-empty = text must not be empty
text-too-long = text must be at most { $max } characters, got { $got }
title-invalid = title must be at most { $max } characters and must not be blank
kind-unknown = unknown kind '{ $kind }': expected info, maintenance or outage
audience-unknown = unknown audience '{ $audience }': expected everyone, signed_in or roles
audience-roles-empty = audience 'roles' needs at least one role
roles-without-audience = roles are only allowed with audience 'roles'
roles-invalid = at most { $max-roles } roles, each 1 to { $max-chars } characters without spaces
window-empty = valid_to must be later than valid_from
message-not-found = no message { $id } for this client
# The offending values are quoted and escaped already.
markdown-raw-html = raw HTML is not allowed in messages (found { $html }); use Markdown instead
markdown-unsafe-link = the link destination { $destination } is not allowed; only http, https, mailto, tel and relative links are
markdown-protocol-relative-link = the link destination { $destination } is not allowed; write the full https:// address instead of starting with //
markdown-heading-attribute = the heading attribute { $attribute } is not allowed; only {"{"}#id{"}"} and {"{"}.class{"}"} are

## Storage.

# $constraint: the name of the violated unique constraint.
resource-conflict = the request conflicts with existing data ({ $constraint })

## Multipart forms (uploads). $limit is in bytes, except for multipart-too-many-files.

multipart-content-type = expected a body with Content-Type: multipart/form-data
multipart-unknown-field = unknown form field "{ $field }"
multipart-field-too-large = the form field "{ $field }" is too large (at most { $limit } { $limit ->
        [one] byte
       *[other] bytes
    })
multipart-too-many-files = too many files (at most { $limit })
multipart-file-too-large = the file in the form field "{ $field }" is too large (at most { $limit } { $limit ->
        [one] byte
       *[other] bytes
    })
multipart-total-too-large = the form data are too large in total (at most { $limit } { $limit ->
        [one] byte
       *[other] bytes
    })
multipart-not-utf8 = the form field "{ $field }" is not valid UTF-8 text
multipart-missing-field = the form field "{ $field }" is required
multipart-malformed = malformed multipart form data: { $reason }

## Reports (citizen-api): filing and listing.
report-field-empty = { $field } must not be empty
report-field-too-long = { $field } has { $chars } characters; at most { $max } are allowed
order-by-location-needs-location = orderBy=location needs the location parameter
parameter-not-one-of = { $parameter } must be one of { $allowed }, got { $value }
report-not-found = There is no report with this id.
report-invalid-location = location is not readable: it must be "longitude,latitude" or "longitude,latitude,radius" in WGS84
report-outside-city = the location lies outside the city's territory
date-invalid = { $parameter } must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z, got { $value }
date-range-reversed = dateFrom must not be later than dateTo
stats-period-invalid = dateFrom must be earlier than dateTo, at most { $days } days before it
stats-format-invalid = format must be json or csv, got { $value }
has-photo-invalid = hasPhoto must be true or false
parameter-repeated = { $parameter } may be given only once
category-id-invalid = category must be a category id (a UUID), got { $value }
error-REPORT_NOT_FOUND = There is no such report.
location-invalid = location must be "longitude,latitude" or "longitude,latitude,radius" in WGS84 with a positive radius in metres, got { $value }

## Officers' workflow on issues (citizen-api). $status is the issue's state name.
error-ISSUE_TRANSITION_NOT_ALLOWED = The issue's state does not allow this step.
issue-not-open = only an open issue can be accepted; this one is { $status }
issue-not-accepted = only an accepted issue can be resolved; this one is { $status }
issue-cannot-move = a { $status } issue cannot be moved
issue-moved-not-duplicate = a moved issue cannot be marked as a duplicate
issue-duplicate-of-itself = an issue cannot be a duplicate of itself
issue-unsuitable-parent = the parent issue is { $status }; a duplicate's parent must be open, accepted or resolved

## Vote pool (citizen-api).
error-NOT_ENOUGH_VOTE_TOKENS = Not enough vote tokens are available.
vote-count-too-small = count must be at least 1
vote-not-enough-tokens = { $requested } tokens requested but only { $available } available; none was placed
error-VOTE_TARGET_NOT_FOUND = There is nothing to vote on with this id.
vote-target-not-found = no report or project has the id { $target }
vote-list-active = active must be true or false
vote-list-cursor = pagecursor must be [inserted_at, token_id] (an RFC 3339 instant and a token id) or a nextCursor handed out before
vote-list-cursor-filter = the cursor belongs to another active filter than the one asked for

## Erasing one's data (citizen-api, DELETE /me).
erase-confirm = confirm must be "ERASE": erasing your data cannot be undone
erase-by-operator = the data of the city's staff is erased by its operators, not by this request
data-export-not-found = there is no export at this link, or its link has expired: ask for a new one with POST /me/data-export



# citizen-api: media, captcha, rate limit
## Attachments of reports. $type is a file type (JPEG, PNG, …); $types lists the accepted ones.
media-empty = a file in the form is empty
media-unreadable = a file in the form could not be read to its end
media-corrupt = the { $type } file is damaged or incomplete
media-unsupported-type = a file is of a type that is not accepted; accepted types: { $types }
media-metadata-not-removable = the { $type } file carries location or camera data in a form that cannot be removed; please convert it to JPEG
media-not-found = no such file
## Idempotency-Key of POST /reports.
idempotency-key-invalid = Idempotency-Key must be 1 to 255 visible ASCII characters, optionally in double quotes
idempotency-key-in-use = a filing with this Idempotency-Key is still being processed; retry it in a moment
idempotency-key-reused = this Idempotency-Key was already used for a different form; use a new key for a new report
## CAPTCHA of anonymous reports.
captcha-missing = a CAPTCHA token (captchaToken) is required when filing without signing in
captcha-rejected = the CAPTCHA check did not pass
captcha-low-score = the CAPTCHA check did not pass; please try again
captcha-wrong-action = the CAPTCHA token was made for another action
captcha-wrong-hostname = the CAPTCHA token was made for another site
captcha-unavailable = the CAPTCHA could not be checked right now; please try again later
captcha-malformed-answer = the CAPTCHA could not be checked right now; please try again later
captcha-timeout = the CAPTCHA could not be checked in time; please try again later
## Rate limit of anonymous reports. $seconds: how long to wait.
rate-limit-reports = too many reports from your address; try again in { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    }

# news
## News items, news categories, subscriptions and projects (citizen-api). $field names a field
## of the body; $max is a number; $category is a category id.
error-CATEGORY_HAS_CHILDREN = The category still has child categories.
news-cursor-invalid = pagecursor must be a nextCursor handed out before: [date, news_id] without location, [distance in metres or "null", news_id] with it
news-item-not-found = no news item has this id
news-field-empty = { $field } must not be empty
news-field-too-long = { $field } may have at most { $max } characters
news-url-invalid = { $field } must be an http or https address
news-location-invalid = location must be a GeoJSON Point with a longitude and a latitude in WGS84
news-too-many = { $field } may have at most { $max } entries
news-category-unknown = no news category has the id { $category }
news-id-not-accepted = id is accepted only in an import file; the service chooses the id of a new item
news-category-not-found = no news category has this id
news-category-has-children = the category still has child categories; move or delete them first
news-category-parent-not-found = parent_id names no news category
news-category-cycle = a category cannot be placed under itself or under one of its descendants
news-category-view = view must be flat or tree
news-subscription-unknown = no news category has the id { $category }; nothing was changed
project-not-found = no project has this id
project-cursor-invalid = pagecursor must be [open_from, project_id] (an RFC 3339 instant and a project id) as handed out in nextCursor
# admin
error-ISSUE_NOT_FOUND = The issue does not exist.
error-MEDIA_NOT_FOUND = The file does not exist.
error-CATEGORY_IN_USE = The category is in use.
## The officers' side (citizen-api /admin/…). $max is a limit.
issue-not-found = There is no issue with this id in your categories.
report-category-not-found = There is no report category with this id.
overdue-invalid = overdue must be true or false
statement-final-invalid = final must be true or false
category-in-use = reports were placed in this category; it cannot be deleted
category-default-required = there must be a default category: make another one the default instead
category-name-invalid = the category name must have 1 to { $max } characters
category-deadline-invalid = statement_deadline_days must be between 1 and { $max }, or null
officer-subject-invalid = the officer's account id must have 1 to { $max } characters
error-REPLY_TEMPLATE_NOT_FOUND = The reply template does not exist.
error-TOO_MANY_REPLY_TEMPLATES = The category has as many reply templates as it may have.
reply-template-not-found = There is no reply template with this id in your categories.
reply-template-title-invalid = the title must have 1 to { $max } characters (surrounding spaces left out), it has { $chars }
reply-template-texts-empty = texts must hold a text in at least one of the languages cs, en, uk
reply-template-language-unknown = texts may hold only the languages cs, en and uk, got { $value }
reply-template-text-empty = the { $language } text must not be empty
reply-template-text-too-long = the { $language } text has { $chars } characters; at most { $max } are allowed
reply-template-applies-on-invalid = applies_on must be accepted, resolved or null, got { $value }
reply-templates-too-many = a category may have at most { $max } reply templates; delete one first
# notifications
## The feed, read marks and settings (/me/notifications…).
notification-tags-empty = notificationTags must hold at least one tag
# $max: the most tags in one request.
notification-tags-too-many = notificationTags holds more than { $max } tags
# $tag is quoted and escaped already.
notification-tag-malformed = { $tag } is not a notification tag
# $count: how many of the tags are not the caller's notifications.
notification-tags-not-own = { $count ->
        [one] one tag is
       *[other] { $count } tags are
    } not among your notifications; nothing was marked read
notification-cursor = pagecursor must be two date-times: [sent_at, inserted_at]
error-WEBPUSH_ENDPOINT_NOT_ALLOWED = The web push endpoint is not on an allowed push service.
error-INVALID_WEBPUSH_KEYS = The web push subscription keys are invalid.
error-EMAIL_CLAIM_MISSING = Your account has no e-mail address.
# $host is quoted and escaped already.
webpush-endpoint-not-allowed = the endpoint must be an https URL of an allowed push service (not { $host })
webpush-endpoint-invalid = the endpoint is not an https URL
webpush-p256dh-invalid = keys.p256dh must be an uncompressed P-256 public key in base64url
webpush-auth-invalid = keys.auth must be 16 bytes in base64url
webpush-subscription-not-found = you have no web push subscription with this endpoint
email-claim-missing = the token carries no email claim, so there is no address to send to
email-unsubscribed = You will no longer receive notifications by e-mail.
email-unsubscribe-token-unknown = no e-mail subscription has this unsubscribe token (it may have ended already)
email-unsubscribe-title = E-mail notifications
email-unsubscribe-question = Do you want to stop receiving notifications by e-mail?
email-unsubscribe-button = Unsubscribe
email-footer-unsubscribe = Unsubscribe
## Feed entries of the outbox events. $title: the report's title; $status: the issue's new state.
notification-report-status-title = Your report has a new status
notification-report-status-body = “{ $title }” is now { $status ->
        [accepted] accepted
        [resolved] resolved
        [duplicate] marked as a duplicate
       *[other] { $status }
    }.
notification-statement-title = The city has responded to a report
notification-statement-body = A new statement on “{ $title }”.
notification-news-title = News from the city
notification-news-body = “{ $title }”
notification-digest-title = { $count ->
    [one] One new notification
   *[other] { $count } new notifications
}
notification-digest-more = { $count ->
    [one] … and one more
   *[other] … and { $count } more
}
## The web app's dev sign-in (POST /dev/sign-in, local use only).
dev-sign-in-sub = sub must be 1 to { $max } characters without control characters
dev-sign-in-scopes = at most { $max-scopes } scopes, each 1 to { $max-chars } visible ASCII characters without spaces
dev-sign-in-email = email must be an e-mail address of at most { $max } characters
dev-sign-in-locale = locale must be one of { $allowed }
