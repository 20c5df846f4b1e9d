//! `serve_media`: the stored bytes with the recognised type and safe headers.

use super::images;
use super::*;

#[tokio::test]
async fn a_stored_file_is_served_with_its_type_and_safe_headers() {
    let server = serve();
    let (jpeg, expected) = images::jpeg();
    let pdf = b"%PDF-1.7\n%%EOF\n".to_vec();
    let media = stored(
        post(
            &server,
            Body::new().file("a.jpg", &jpeg).file("b.pdf", &pdf),
            4096,
        )
        .await,
    )
    .await;
    for (m, mime, bytes) in [
        (&media[0], "image/jpeg", &expected),
        (&media[1], "application/pdf", &pdf),
    ] {
        let id = m["media_id"].as_str().unwrap();
        let response = reqwest::get(format!("{}/media/{id}", server.base))
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let header = |name: &str| response.headers()[name].to_str().unwrap().to_owned();
        assert_eq!(header("content-type"), mime);
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(
            header("cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert!(header("content-security-policy").starts_with("sandbox"));
        assert_eq!(header("content-length"), bytes.len().to_string());
        assert_eq!(response.bytes().await.unwrap().as_ref(), bytes.as_slice());
    }
}

#[tokio::test]
async fn unknown_and_malformed_ids_are_404() {
    let server = serve();
    for id in [
        uuid::Uuid::new_v4().to_string(),
        "not-a-uuid".into(),
        "..%2F..%2Fetc".into(),
    ] {
        let response = reqwest::get(format!("{}/media/{id}", server.base))
            .await
            .unwrap();
        let body = error(response, 404).await;
        assert_eq!(body.name, "NOT_FOUND", "{id}");
    }
}

#[tokio::test]
async fn open_recognises_the_type_again_from_the_stored_bytes() {
    use futures::TryStreamExt;
    let server = serve();
    let (png, expected) = images::png();
    let media = stored(post(&server, Body::new().file("p.png", &png), 4096).await).await;
    let id: uuid::Uuid = media[0]["media_id"].as_str().unwrap().parse().unwrap();
    let opened = server.store.open(id).await.unwrap().unwrap();
    assert_eq!(opened.media_type, citizen_api::media::MediaType::Png);
    assert_eq!(opened.size, expected.len() as u64);
    let chunks: Vec<bytes::Bytes> = opened.body.try_collect().await.unwrap();
    assert_eq!(chunks.concat(), expected);
    // A file put into the folder by someone else is not served as anything.
    std::fs::write(server.dir.join(uuid::Uuid::nil().to_string()), b"<html>").unwrap();
    let response = reqwest::get(format!("{}/media/{}", server.base, uuid::Uuid::nil()))
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 500);
}
