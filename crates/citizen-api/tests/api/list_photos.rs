//! `hasPhoto`: reports with at least one photo, or without any, in every list and walk that
//! takes the public list's filters (the public list by date and nearest first, the officers'
//! general walk and their one-category walk).

use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, ids};
use crate::helpers::{assert_error, file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    has_photo_selects_by_the_reports_photos_in_every_list,
    has_photo_takes_only_true_or_false,
);

/// A report filed through the API by `citizen-1` at a location, with a photo or without,
/// moved into `roads`: its id.
async fn filed(app: &TestApp, title: &str, photo: bool, roads: Uuid) -> Uuid {
    let mut f = form(title, "d").text("location", "14.4213,50.0875,15");
    if photo {
        let (jpeg, _) = images::jpeg();
        f = f.part("media", file(jpeg, "photo.jpg"));
    }
    let (status, _, body) = app.post_report(f, Some(&app.token("citizen-1", &[]))).await;
    assert_eq!(status, 201, "{body}");
    let report = id(&body, "id");
    let issues = app.admin_issues(report, &app.boss()).await;
    let first = id(&issues["issues"][0], "issue_id");
    let (status, moved) = app.move_to(first, roads, &app.boss()).await;
    assert_eq!(status, 200, "{moved}");
    report
}

async fn has_photo_selects_by_the_reports_photos_in_every_list(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    app.assign("o-roads", roads).await;
    let with = filed(&app, "With a photo", true, roads).await;
    let without = filed(&app, "Without", false, roads).await;
    let (with, without) = (vec![with.to_string()], vec![without.to_string()]);
    let public = |query: &str| {
        let app = &app;
        let path = format!("/reports?{query}");
        async move { ids(&app.get_ok(&path).await) }
    };
    assert_eq!(public("hasPhoto=true").await, with);
    assert_eq!(public("hasPhoto=false").await, without);
    assert_eq!(public("").await.len(), 2, "no filter without the parameter");
    let near = "location=14.4213,50.0875,500&orderBy=location";
    assert_eq!(public(&format!("{near}&hasPhoto=true")).await, with);
    assert_eq!(public(&format!("{near}&hasPhoto=false")).await, without);
    // The officers' general walk (every category) and the one-category walk.
    for token in [app.boss(), app.officer("o-roads")] {
        assert_eq!(ids(&app.admin_list("hasPhoto=true", &token).await), with);
        assert_eq!(
            ids(&app.admin_list("hasPhoto=false", &token).await),
            without
        );
        let both = app.admin_list("hasPhoto=true&overdue=false", &token).await;
        assert_eq!(ids(&both), with, "with the officers' own filter");
    }
}

async fn has_photo_takes_only_true_or_false(app: TestApp) {
    for path in ["/reports", "/admin/reports"] {
        for value in ["yes", "1", "True", ""] {
            let (status, body) = app
                .get_as(&format!("{path}?hasPhoto={value}"), Some(&app.boss()))
                .await;
            assert_error(status, &body, 400, "VALIDATION_ERROR");
            assert!(
                body["userinfo"].as_str().unwrap_or("").contains("hasPhoto"),
                "{path}?hasPhoto={value}: {body}"
            );
        }
        let (status, body) = app
            .get_as(
                &format!("{path}?hasPhoto=true&hasPhoto=false"),
                Some(&app.boss()),
            )
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}
