//! `GET /reports/{reportId}`: the detail with the status derived from all issues.

use citizen_api::store::{Media, NewReport};
use domain::geo::{LocationParam, LonLat};
use domain::issues::Transition;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::{assert_error, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    detail_derives_the_status_from_all_issues,
    unknown_and_malformed_ids_are_404,
    media_carry_their_public_url,
    explicit_media_are_hidden_from_the_public_but_not_from_the_author,
);

async fn detail_derives_the_status_from_all_issues(app: TestApp) {
    let roads = app.category("Roads", Some(3)).await;
    let a = app.file(Filing::new("A", 1).at(14.42, 50.08)).await;
    let body = app.get_ok(&format!("/reports/{}", a.report)).await;
    assert_eq!(body["id"], a.report.to_string());
    assert_eq!(body["status"], "open");
    assert_eq!(
        body["location"]["coordinates"],
        serde_json::json!([14.42, 50.08])
    );
    assert!(body.get("issue_id").is_none() && body.get("distance").is_none());
    // Moved: the new open issue counts, the moved one does not.
    let moved = app.desk().move_to(a.issue, roads.id, app.time(5)).await;
    assert_eq!(
        app.get_ok(&format!("/reports/{}", a.report)).await["status"],
        "open"
    );
    app.accept(moved.id, app.time(6)).await;
    let body = app.get_ok(&format!("/reports/{}", a.report)).await;
    assert_eq!(body["status"], "accepted");
    assert_eq!(
        body["processed_at"],
        app.time(5)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    app.desk()
        .status(moved.id, Transition::Resolve, app.time(7))
        .await;
    assert_eq!(
        app.get_ok(&format!("/reports/{}", a.report)).await["status"],
        "resolved"
    );
    // A duplicate of a resolved issue of another report.
    let b = app.file(Filing::new("B", 8)).await;
    app.desk()
        .duplicate_of(b.issue, moved.id, app.time(9))
        .await;
    assert_eq!(
        app.get_ok(&format!("/reports/{}", b.report)).await["status"],
        "duplicate"
    );
    // Refused steps change nothing.
    let err = app
        .desk()
        .try_status(moved.id, Transition::Accept, app.time(10))
        .await;
    assert!(
        matches!(err, Err(citizen_api::store::WorkflowError::Refused(_))),
        "{err:?}"
    );
    assert_eq!(
        app.get_ok(&format!("/reports/{}", a.report)).await["status"],
        "resolved"
    );
}

async fn unknown_and_malformed_ids_are_404(app: TestApp) {
    for id in [
        Uuid::now_v7().to_string(),
        "not-a-uuid".to_owned(),
        "1".to_owned(),
    ] {
        for suffix in ["", "/status"] {
            let (status, body) = app.get(&format!("/reports/{id}{suffix}")).await;
            assert_error(status, &body, 404, "REPORT_NOT_FOUND");
        }
    }
}

async fn media_carry_their_public_url(app: TestApp) {
    let id = Uuid::now_v7();
    let media: Vec<Media> = (0..2)
        .map(|i| Media {
            id: Uuid::now_v7(),
            filename: format!("photo-{i}.jpg"),
            media_type: "image/jpeg".into(),
            size_bytes: 1000 + i,
        })
        .collect();
    let new = NewReport {
        id,
        author: None,
        title: "With photos".into(),
        description: "Two of them".into(),
        location: Some(LocationParam {
            point: LonLat {
                lon: 14.4,
                lat: 50.1,
            },
            radius_m: Some(25.0),
        }),
        media: media.clone(),
        ..NewReport::default()
    };
    app.file_new(&new, 1).await;
    let body = app.get_ok(&format!("/reports/{id}")).await;
    let got = body["media"].as_array().unwrap();
    assert_eq!(got.len(), 2);
    for (m, want) in got.iter().zip(&media) {
        assert_eq!(m["media_id"], want.id.to_string());
        assert_eq!(m["filename"], want.filename);
        assert_eq!(m["media_type"], "image/jpeg");
        assert_eq!(
            m["public_url"],
            format!("{}/{}", app.settings.media.public_base_url, want.id)
        );
    }
    let list = app.get_ok("/reports").await;
    assert_eq!(list["reports"][0]["media"].as_array().unwrap().len(), 2);
}

async fn explicit_media_are_hidden_from_the_public_but_not_from_the_author(app: TestApp) {
    let id = Uuid::now_v7();
    let new = NewReport {
        id,
        author: Some("citizen-1".into()),
        title: "Graffiti".into(),
        description: "Offensive".into(),
        location: None,
        address: None,
        media: vec![Media {
            id: Uuid::now_v7(),
            filename: "wall.jpg".into(),
            media_type: "image/jpeg".into(),
            size_bytes: 10,
        }],
        ..NewReport::default()
    };
    app.file_new(&new, 1).await;
    assert!(app.stores.reports.set_explicit(id, true).await.unwrap());
    assert!(!app
        .stores
        .reports
        .set_explicit(Uuid::now_v7(), true)
        .await
        .unwrap());
    let media_count = |body: &serde_json::Value| body["media"].as_array().unwrap().len();
    let public = app.get_ok(&format!("/reports/{id}")).await;
    assert_eq!(
        (public["explicit"].as_bool(), media_count(&public)),
        (Some(true), 0)
    );
    let list = app.get_ok("/reports").await;
    assert_eq!(media_count(&list["reports"][0]), 0);
    let stranger = app.token("citizen-2", &[]);
    let (_, theirs) = app.get_as(&format!("/reports/{id}"), Some(&stranger)).await;
    assert_eq!(media_count(&theirs), 0);
    let author = app.token("citizen-1", &[]);
    let (_, own) = app.get_as(&format!("/reports/{id}"), Some(&author)).await;
    assert_eq!(media_count(&own), 1);
    let (_, mine) = app.get_as("/me/reports", Some(&author)).await;
    assert_eq!(media_count(&mine["reports"][0]), 1);
    assert!(app.stores.reports.set_explicit(id, false).await.unwrap());
    assert_eq!(media_count(&app.get_ok(&format!("/reports/{id}")).await), 1);
}
