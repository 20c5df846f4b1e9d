//! Checks of a web push subscription: the endpoint (https on an allowed push service) and the
//! keys (`p256dh` an uncompressed P-256 point, `auth` a 16-byte secret, both base64url).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use domain::notifications::push_host_allowed;
use service_kit::ApiError;

use super::WebPushSettings;

/// The longest endpoint accepted (browsers' are a few hundred characters).
pub const MAX_ENDPOINT_LEN: usize = 2048;

/// Decodes base64url with or without padding (browsers send it without).
pub fn decode_b64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .ok()
}

/// The endpoint, when it is an https (or, when allowed, http) URL on an allowed host.
pub fn check_endpoint(endpoint: &str, settings: &WebPushSettings) -> Result<url::Url, ApiError> {
    let invalid = || {
        ApiError::new(
            ErrorCode::WebpushEndpointNotAllowed,
            Message::new("webpush-endpoint-invalid"),
        )
    };
    if endpoint.len() > MAX_ENDPOINT_LEN {
        return Err(invalid());
    }
    let url = url::Url::parse(endpoint).map_err(|_| invalid())?;
    let scheme_ok = url.scheme() == "https" || (settings.allow_http && url.scheme() == "http");
    if !scheme_ok || !url.username().is_empty() || url.password().is_some() {
        return Err(invalid());
    }
    let host = url.host_str().ok_or_else(invalid)?;
    if !push_host_allowed(host, &settings.allowed_hosts) {
        return Err(ApiError::new(
            ErrorCode::WebpushEndpointNotAllowed,
            Message::new("webpush-endpoint-not-allowed").arg("host", format!("{host:?}")),
        ));
    }
    Ok(url)
}

/// The subscription's public key and secret, when they are what RFC 8291 needs.
pub fn check_keys(p256dh: &str, auth: &str) -> Result<(), ApiError> {
    let point = decode_b64url(p256dh)
        .filter(|bytes| bytes.len() == 65 && bytes[0] == 4)
        .filter(|bytes| p256::PublicKey::from_sec1_bytes(bytes).is_ok());
    if point.is_none() {
        return Err(ApiError::new(
            ErrorCode::InvalidWebpushKeys,
            Message::new("webpush-p256dh-invalid"),
        ));
    }
    if decode_b64url(auth).is_none_or(|secret| secret.len() != 16) {
        return Err(ApiError::new(
            ErrorCode::InvalidWebpushKeys,
            Message::new("webpush-auth-invalid"),
        ));
    }
    Ok(())
}
