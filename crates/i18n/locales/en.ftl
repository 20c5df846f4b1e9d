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
error-WEBPUSH_SUBSCRIPTION_NOT_FOUND = The web push subscription does not exist.
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
vote-target-not-found = no report has the id { $target }


# citizen-api: media, captcha, rate limit
## Attachments of reports. $type is a file type (JPEG, PNG, …); $types lists the accepted ones.
media-empty = a file in the form is empty
media-unreadable = a file in the form could not be read to its end
media-corrupt = the { $type } file is damaged or incomplete
media-unsupported-type = a file is of a type that is not accepted; accepted types: { $types }
media-metadata-not-removable = the { $type } file carries location or camera data in a form that cannot be removed; please convert it to JPEG
media-not-found = no such file
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
