//! Checking what a web push sender sends, as a push service would.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Verifier as _;
use p256::ecdsa::{Signature, VerifyingKey};

/// The `Authorization: vapid t=<JWT>, k=<key>` header of a push request (RFC 8292): panics
/// unless the JWT is signed with ES256 by the key `k`; returns `k` and the JWT's claims.
pub fn vapid_claims(authorization: &str) -> (String, serde_json::Value) {
    let (t, k) = authorization
        .strip_prefix("vapid t=")
        .unwrap()
        .split_once(", k=")
        .unwrap();
    let public = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(k).unwrap()).unwrap();
    let (input, signature) = t.rsplit_once('.').unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    public.verify(input.as_bytes(), &signature).unwrap();
    let claims = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(input.split_once('.').unwrap().1)
            .unwrap(),
    )
    .unwrap();
    (k.to_owned(), claims)
}
