//! Web push payloads: RFC 8291 `aes128gcm` encryption for a subscription's keys and the RFC 8292
//! VAPID `Authorization` header (an ES256 JWT). Delivery over HTTP builds on these.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use anyhow::{anyhow, Context as _};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hkdf::Hkdf;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use p256::{PublicKey, SecretKey};
use rand_core::{OsRng, RngCore as _};
use sha2::Sha256;

use super::keys::decode_b64url;

/// The record size announced in the header (one record carries the whole payload).
pub const RECORD_SIZE: u32 = 4096;

/// The payload encrypted for a subscription (`Content-Encoding: aes128gcm`).
pub fn encrypt(payload: &[u8], p256dh: &str, auth: &str) -> anyhow::Result<Vec<u8>> {
    let ua_public = decode_b64url(p256dh).context("p256dh is not base64url")?;
    let auth = decode_b64url(auth).context("auth is not base64url")?;
    let mut salt = [0u8; 16];
    OsRng.fill_bytes(&mut salt);
    let server = SecretKey::random(&mut OsRng);
    encrypt_with(payload, &ua_public, &auth, &server, salt)
}

/// [`encrypt`] with a given server key and salt (tests, and the RFC 8291 example).
pub fn encrypt_with(
    payload: &[u8],
    ua_public: &[u8],
    auth: &[u8],
    server: &SecretKey,
    salt: [u8; 16],
) -> anyhow::Result<Vec<u8>> {
    if payload.len() + 17 > RECORD_SIZE as usize {
        return Err(anyhow!("payload too large for one record"));
    }
    let ua = PublicKey::from_sec1_bytes(ua_public).context("p256dh is not a P-256 point")?;
    let as_public = server.public_key().to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(server.to_nonzero_scalar(), ua.as_affine());
    let (cek, nonce) = derive(
        shared.raw_secret_bytes(),
        auth,
        ua_public,
        as_public.as_bytes(),
        &salt,
    )?;
    let mut plain = payload.to_vec();
    plain.push(2); // the last (only) record's delimiter
    let cipher = Aes128Gcm::new_from_slice(&cek).map_err(|_| anyhow!("content key length"))?;
    let sealed = cipher
        .encrypt(&Nonce::from(nonce), plain.as_slice())
        .map_err(|_| anyhow!("encryption failed"))?;
    let mut body = Vec::with_capacity(86 + sealed.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(as_public.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The content key and nonce of RFC 8291 section 3.4 / RFC 8188.
pub fn derive(
    ecdh_secret: &[u8],
    auth: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    salt: &[u8],
) -> anyhow::Result<([u8; 16], [u8; 12])> {
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(ua_public);
    key_info.extend_from_slice(as_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), ecdh_secret)
        .expand(&key_info, &mut ikm)
        .map_err(|_| anyhow!("hkdf"))?;
    let hk = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    let mut nonce = [0u8; 12];
    hk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .map_err(|_| anyhow!("hkdf"))?;
    hk.expand(b"Content-Encoding: nonce\0", &mut nonce)
        .map_err(|_| anyhow!("hkdf"))?;
    Ok((cek, nonce))
}

/// The VAPID `Authorization` header value for `endpoint`: `vapid t=<ES256 JWT>, k=<public key>`,
/// valid for 12 hours from `now_secs`.
pub fn vapid_authorization(
    key: &SigningKey,
    endpoint: &url::Url,
    subject: &str,
    now_secs: i64,
) -> anyhow::Result<String> {
    let audience = endpoint.origin().ascii_serialization();
    let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
    let claims = serde_json::json!({"aud": audience, "exp": now_secs + 12 * 3600, "sub": subject});
    let claims = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims)?);
    let signing_input = format!("{header}.{claims}");
    let signature: Signature = key.sign(signing_input.as_bytes());
    let public = key.verifying_key().to_encoded_point(false);
    Ok(format!(
        "vapid t={signing_input}.{}, k={}",
        URL_SAFE_NO_PAD.encode(signature.to_bytes()),
        URL_SAFE_NO_PAD.encode(public.as_bytes())
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use test_support::webpush::decrypt;

    #[test]
    fn the_subscription_key_decrypts_what_is_sent() {
        let ua = SecretKey::random(&mut OsRng);
        let ua_public = ua.public_key().to_encoded_point(false);
        let auth = [7u8; 16];
        let body = encrypt(
            "Ahoj, hlášení je přijato".as_bytes(),
            &URL_SAFE_NO_PAD.encode(ua_public.as_bytes()),
            &URL_SAFE_NO_PAD.encode(auth),
        )
        .unwrap();
        assert_eq!(
            decrypt(&body, &ua, &auth),
            "Ahoj, hlášení je přijato".as_bytes()
        );
        // Another browser's key cannot read it.
        let other = SecretKey::random(&mut OsRng);
        let result = std::panic::catch_unwind(|| decrypt(&body, &other, &auth));
        assert!(result.is_err());
    }

    /// RFC 8291 section 5: the example's keys and salt give the example's body.
    #[test]
    fn the_rfc_8291_example_comes_out_byte_for_byte() {
        let b = |s: &str| URL_SAFE_NO_PAD.decode(s).unwrap();
        let server =
            SecretKey::from_slice(&b("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")).unwrap();
        let ua_public = b("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4");
        let auth = b("BTBZMqHH6r4Tts7J_aSIgg");
        let salt: [u8; 16] = b("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = encrypt_with(
            b"When I grow up, I want to be a watermelon",
            &ua_public,
            &auth,
            &server,
            salt,
        )
        .unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
    }

    #[test]
    fn the_vapid_header_is_an_es256_jwt_for_the_endpoint_origin() {
        let key = SigningKey::random(&mut OsRng);
        let endpoint = url::Url::parse("https://fcm.googleapis.com/fcm/send/abc").unwrap();
        let header =
            vapid_authorization(&key, &endpoint, "mailto:ops@example.org", 1_700_000_000).unwrap();
        let (_, claims) = test_support::webpush::vapid_claims(&header);
        assert_eq!(claims["aud"], "https://fcm.googleapis.com");
        assert_eq!(claims["exp"], 1_700_000_000 + 12 * 3600);
        assert_eq!(claims["sub"], "mailto:ops@example.org");
    }
}
