//! Checking what a web push sender sends, as a push service and a browser would.

use aes_gcm::aead::{Aead as _, KeyInit as _};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier as _;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

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

/// The record size of a push body (RFC 8291 section 4: one record of at most 4 096 bytes).
const RECORD_SIZE: u32 = 4096;

/// What a browser does with a push body (RFC 8291, `aes128gcm` of RFC 8188): derives the
/// content key from its private key `ua` and auth secret, decrypts the one record and strips
/// its padding. Written here on its own, from the RFCs, so that it checks the sender's code and
/// does not share it. Panics unless the body is a record for this browser.
pub fn decrypt(body: &[u8], ua: &SecretKey, auth: &[u8]) -> Vec<u8> {
    let (salt, rest) = body.split_at(16);
    let record_size = u32::from_be_bytes(rest[..4].try_into().unwrap());
    assert_eq!(record_size, RECORD_SIZE, "record size");
    assert_eq!(rest[4], 65, "key id length: an uncompressed P-256 point");
    let as_public = &rest[5..70];
    let sender = PublicKey::from_sec1_bytes(as_public).unwrap();
    let shared = p256::ecdh::diffie_hellman(ua.to_nonzero_scalar(), sender.as_affine());
    let ua_public = ua.public_key().to_encoded_point(false);
    // RFC 8291 section 3.4: the input keying material from the ECDH secret and the auth secret.
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(ua_public.as_bytes());
    key_info.extend_from_slice(as_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .unwrap();
    // RFC 8188 section 2.2 and 2.3: the content key and the nonce from the salt.
    let content = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    let mut nonce = [0u8; 12];
    content
        .expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .unwrap();
    content
        .expand(b"Content-Encoding: nonce\0", &mut nonce)
        .unwrap();
    let mut plain = Aes128Gcm::new_from_slice(&cek)
        .unwrap()
        .decrypt(&Nonce::from(nonce), &rest[70..])
        .unwrap();
    // The last (and only) record: the content, the delimiter 2, then zeros.
    while plain.last() == Some(&0) {
        plain.pop();
    }
    assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
    plain
}
