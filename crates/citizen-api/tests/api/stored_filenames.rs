//! Stored file names cannot disguise themselves (issue 51, item 4): a JPEG sent as
//! `photo\u{202e}gnp.exe` (shown as "photoexe.png" where bidi overrides count) or as `shot.html`
//! is answered and exported without format characters and with the extension of its sniffed
//! type, the client's stem kept.

use serde_json::Value;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::data_export::download;
use crate::helpers::{file, form, TestApp};
use crate::media_images::images;
use crate::privacy_helpers::start_export;

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    a_disguised_file_name_is_stored_plain_with_the_extension_of_its_type,
);

const CITIZEN: &str = "citizen-names-n1";

fn names(report: &Value) -> Vec<(String, String)> {
    report["media"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["filename"].as_str().unwrap().to_owned(),
                m["media_type"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn a_disguised_file_name_is_stored_plain_with_the_extension_of_its_type(app: TestApp) {
    let (jpeg, _) = images::jpeg();
    // The names as the client wrote them, UTF-8 in `filename="…"` (not percent-encoded).
    let f = form("Pothole", "Deep")
        .percent_encode_noop()
        .part("media", file(jpeg.clone(), "photo\u{202e}gnp.exe"))
        .part("media", file(jpeg, "shot.html"));
    let (status, _, body) = app.post_report(f, Some(&app.token(CITIZEN, &[]))).await;
    assert_eq!(status, 201, "{body}");
    let expected = vec![
        ("photognp.jpg".to_owned(), "image/jpeg".to_owned()),
        ("shot.jpg".to_owned(), "image/jpeg".to_owned()),
    ];
    assert_eq!(names(&body), expected, "{body}");
    let report = id(&body, "id");
    let detail = app.get_ok(&format!("/reports/{report}")).await;
    assert_eq!(names(&detail), expected, "{detail}");

    let link = start_export(&app, CITIZEN).await;
    let files = download(&app, &link).await.unwrap();
    let mut photos: Vec<String> = files
        .keys()
        .filter(|name| name.starts_with("photos/"))
        .cloned()
        .collect();
    photos.sort();
    let mut wanted: Vec<String> = body["media"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["photognp.jpg", "shot.jpg"])
        .map(|(m, name)| format!("photos/{}-{name}", id(m, "media_id")))
        .collect();
    wanted.sort();
    assert_eq!(photos, wanted);
}
