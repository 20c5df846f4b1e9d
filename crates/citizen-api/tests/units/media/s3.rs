//! The S3 path against a local stand-in of the S3 multipart API (wiremock): the key is
//! `<prefix>/<media_id>`, the object gets its `Content-Type`, the stored bytes are the
//! stripped ones, and a failed upload is aborted.

use wiremock::matchers::{method, path_regex, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::images;
use super::*;

const KEY: &str = r"^/citizen-media/reports/[0-9a-f]{8}-[0-9a-f-]{27}$";

async fn s3_stand_in() -> MockServer {
    let s3 = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path_regex(KEY))
        .and(query_param("uploads", ""))
        .respond_with(ResponseTemplate::new(200).set_body_string(
            "<InitiateMultipartUploadResult><Bucket>citizen-media</Bucket><Key>k</Key>\
             <UploadId>up-1</UploadId></InitiateMultipartUploadResult>",
        ))
        .mount(&s3)
        .await;
    Mock::given(method("PUT"))
        .and(path_regex(KEY))
        .and(query_param("partNumber", "1"))
        .and(query_param("uploadId", "up-1"))
        .respond_with(ResponseTemplate::new(200).insert_header("ETag", "\"etag-1\""))
        .mount(&s3)
        .await;
    Mock::given(method("POST"))
        .and(path_regex(KEY))
        .and(query_param("uploadId", "up-1"))
        .respond_with(ResponseTemplate::new(200).set_body_string(
            "<CompleteMultipartUploadResult><ETag>\"final\"</ETag></CompleteMultipartUploadResult>",
        ))
        .mount(&s3)
        .await;
    s3
}

fn server_on(s3: &MockServer) -> Server {
    let endpoint = s3.uri();
    serve_with(move |s| {
        s.store_url = Some("s3://citizen-media/reports".into());
        s.s3_endpoint = Some(endpoint);
        s.s3_region = Some("us-east-1".into());
        s.s3_access_key_id = Some("citizen-api".into());
        s.s3_secret_access_key = Some("not-a-real-secret".to_owned().into());
        s.s3_allow_http = true;
    })
}

#[tokio::test]
async fn a_photo_goes_to_the_bucket_stripped_under_its_media_id_with_its_type() {
    let s3 = s3_stand_in().await;
    let server = server_on(&s3);
    let (jpeg, expected) = images::jpeg();
    let media = stored(post(&server, Body::new().file("a.jpg", &jpeg), 4096).await).await;
    let id = media[0]["media_id"].as_str().unwrap();
    let requests = s3.received_requests().await.unwrap();
    let create = &requests[0];
    assert_eq!(create.url.path(), format!("/citizen-media/reports/{id}"));
    assert_eq!(
        create.headers["content-type"].to_str().unwrap(),
        "image/jpeg"
    );
    let part = requests
        .iter()
        .find(|r| r.method.as_str() == "PUT")
        .unwrap();
    assert_eq!(part.body, expected);
    assert!(requests.iter().any(|r| r.method.as_str() == "POST"
        && r.url.query().is_some_and(|q| q.contains("uploadId=up-1"))));
    // Nothing was written locally.
    assert!(!server.dir.exists() || files_in(&server.dir).is_empty());
}

#[tokio::test]
async fn a_failed_upload_is_aborted_in_the_bucket() {
    let s3 = s3_stand_in().await;
    Mock::given(method("DELETE"))
        .and(path_regex(KEY))
        .and(query_param("uploadId", "up-1"))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&s3)
        .await;
    let server = server_on(&s3);
    let (_, clean) = images::jpeg();
    let cut = &clean[..clean.len() - 2];
    let err = error(
        post(&server, Body::new().file("cut.jpg", cut), 4096).await,
        400,
    )
    .await;
    assert_eq!(err.name, "NO_MEDIA");
    s3.verify().await;
}
