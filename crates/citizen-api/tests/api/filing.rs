//! `POST /reports`: a signed-in filing with photos, what is stored and served, what is refused.

use test_support::on_both_backends;

use crate::helpers::{assert_error, column, file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    a_signed_in_citizen_files_a_report_with_a_photo,
    fields_are_checked_at_their_edges_in_characters,
    a_location_must_be_readable_and_inside_the_city,
    a_failed_filing_leaves_no_row_and_no_file,
);

async fn a_signed_in_citizen_files_a_report_with_a_photo(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let (jpeg, stripped) = images::jpeg();
    let (png, _) = images::png();
    let form = form("Díra v chodníku", "Před domem č. 5")
        .text("location", "14.4213,50.0875,15")
        .part("media", file(jpeg, "IMG_0001.jpg"))
        .part("media", file(png, "plan.png"));
    let (status, _, body) = app.post_report(form, Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["title"], "Díra v chodníku");
    assert_eq!(body["status"], "open");
    assert_eq!(
        body["location"]["coordinates"],
        serde_json::json!([14.4213, 50.0875])
    );
    let media = body["media"].as_array().unwrap();
    assert_eq!(media.len(), 2);
    assert_eq!(media[0]["filename"], "IMG_0001.jpg");
    assert_eq!(media[0]["media_type"], "image/jpeg");
    assert_eq!(media[1]["media_type"], "image/png");
    // The stored photo is served back without its metadata.
    let url = media[0]["public_url"].as_str().unwrap();
    let id = media[0]["media_id"].as_str().unwrap();
    assert_eq!(url, format!("{}/{id}", app.settings.media.public_base_url));
    let served = app.get_response(&format!("/media/{id}")).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/jpeg");
    let bytes = served.bytes().await.unwrap();
    assert_eq!(bytes.as_ref(), stripped.as_slice());
    images::assert_no_metadata(&bytes);
    // It is the citizen's, with one open issue in the default category.
    let report = body["id"].as_str().unwrap();
    let (_, mine) = app.get_as("/me/reports", Some(&token)).await;
    assert_eq!(column(&mine, "id"), [report]);
    let list = app.get_ok("/reports").await;
    let default = app.stores.categories.categories().await.unwrap();
    let default = default.iter().find(|c| c.is_default).unwrap();
    assert_eq!(list["reports"][0]["category_id"], default.id.to_string());
    assert_eq!(list["reports"][0]["status"], "open");
    assert_eq!(app.stored_files().len(), 2);
}

async fn fields_are_checked_at_their_edges_in_characters(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let ok = [
        ("ž".repeat(256), "d".to_owned()),
        ("t".to_owned(), "é".repeat(2048)),
    ];
    for (title, description) in ok {
        let (status, _, body) = app
            .post_report(form(&title, &description), Some(&token))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let refused = [
        ("ž".repeat(257), "d".to_owned(), "title"),
        ("t".to_owned(), "é".repeat(2049), "description"),
        ("   ".to_owned(), "d".to_owned(), "title"),
        ("t".to_owned(), String::new(), "description"),
    ];
    for (title, description, field) in refused {
        let (status, _, body) = app
            .post_report(form(&title, &description), Some(&token))
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
        assert!(body["userinfo"].as_str().unwrap().contains(field), "{body}");
    }
    let missing = reqwest::multipart::Form::new().text("title", "t");
    let (status, _, body) = app.post_report(missing, Some(&token)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    assert!(
        body["userinfo"].as_str().unwrap().contains("description"),
        "{body}"
    );
    let unknown = form("t", "d").text("category", "roads");
    let (status, _, body) = app.post_report(unknown, Some(&token)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    let json = app
        .http
        .post(format!("{}/reports", app.base))
        .bearer_auth(&token)
        .json(&serde_json::json!({"title": "t", "description": "d"}))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 415);
    assert_eq!(column(&app.get_ok("/reports").await, "id").len(), 2);
}

async fn a_location_must_be_readable_and_inside_the_city(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    for (location, name) in [
        ("14.42", "REPORT_INVALID_LOCATION"),
        ("abc,def", "REPORT_INVALID_LOCATION"),
        ("14.42,95", "REPORT_INVALID_LOCATION"),
        ("14.42,50.08,-5", "REPORT_INVALID_LOCATION"),
        ("16.6068,49.1951", "REPORT_OUTSIDE_CITY"),
        ("14.2,50.0", "REPORT_OUTSIDE_CITY"),
    ] {
        let (status, _, body) = app
            .post_report(form("t", "d").text("location", location), Some(&token))
            .await;
        assert_error(status, &body, 400, name);
    }
    // On the boundary's first vertex: inside.
    let (status, _, body) = app
        .post_report(
            form("t", "d").text("location", "14.2245,50.103"),
            Some(&token),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn a_failed_filing_leaves_no_row_and_no_file(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let (jpeg, _) = images::jpeg();
    // Two good photos, then a location outside the city: both photos were stored, then removed.
    let late_fault = form("t", "d")
        .part("media", file(jpeg.clone(), "a.jpg"))
        .part("media", file(jpeg.clone(), "b.jpg"))
        .text("location", "16.6,49.2");
    let (status, _, body) = app.post_report(late_fault, Some(&token)).await;
    assert_error(status, &body, 400, "REPORT_OUTSIDE_CITY");
    // A good photo, then an empty file part.
    let empty = form("t", "d")
        .part("media", file(jpeg.clone(), "a.jpg"))
        .part("media", file(Vec::new(), "empty.jpg"));
    let (status, _, body) = app.post_report(empty, Some(&token)).await;
    assert_error(status, &body, 400, "NO_MEDIA");
    // A good photo, then a file that is no accepted type.
    let text = form("t", "d")
        .part("media", file(jpeg, "a.jpg"))
        .part("media", file(b"plain text, not a photo".to_vec(), "a.txt"));
    let (status, _, body) = app.post_report(text, Some(&token)).await;
    assert_eq!(status, 400, "{body}");
    assert!(app.get_ok("/reports").await["reports"]
        .as_array()
        .unwrap()
        .is_empty());
    let (_, mine) = app.get_as("/me/reports", Some(&token)).await;
    assert!(column(&mine, "id").is_empty());
    assert_eq!(app.stored_files(), Vec::<std::path::PathBuf>::new());
}
