//! Changes to one report at the same moment: steps on two of its issues, its `explicit` flag and
//! a deletion of its photo. Migration 0014's triggers rewrite every issue of a report when the
//! report or its media change, so a step that held its issue and then waited for the report
//! could deadlock with them (PostgreSQL aborts one of the two). Every transaction takes the
//! report's row before issue rows; all the changes must succeed, and the list must show them.

use reqwest::Method;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::helpers::{file, form, TestApp};
use crate::list_copies::assert_rows_match_detail;
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    simultaneous_changes_to_one_report_all_succeed,
);

async fn simultaneous_changes_to_one_report_all_succeed(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let boss = app.boss();
    let (jpeg, _) = images::jpeg();
    let citizen = app.token("citizen-1", &[]);
    for round in 0..8 {
        let f = form(&format!("Hole {round}"), "Deep").part("media", file(jpeg.clone(), "a.jpg"));
        let (status, _, body) = app.post_report(f, Some(&citizen)).await;
        assert_eq!(status, 201, "{body}");
        let report = id(&body, "id");
        let photo = id(&body["media"][0], "media_id");
        let first = id(
            &app.admin_issues(report, &boss).await["issues"][0],
            "issue_id",
        );
        let (status, opened) = app.open_in(report, roads, &boss).await;
        assert_eq!(status, 201, "{opened}");
        let second = id(&opened, "issue_id");
        let media = format!("/admin/reports/{report}/media/{photo}");
        let (one, two, flag, deleted) = tokio::join!(
            app.step(first, "accept", &boss),
            app.step(second, "accept", &boss),
            app.set_explicit(report, true, &boss),
            app.request(Method::DELETE, &media, Some(&boss), None),
        );
        assert_eq!(
            (one.0, two.0, flag.0, deleted.0),
            (200, 200, 200, 204),
            "round {round}: {one:?} {two:?} {flag:?} {deleted:?}"
        );
        let rows = assert_rows_match_detail(&app, report, &format!("round {round}")).await;
        assert_eq!(rows.len(), 2);
        let detail = app.get_ok(&format!("/reports/{report}")).await;
        assert_eq!(
            (detail["explicit"].as_bool(), detail["status"].as_str()),
            (Some(true), Some("accepted"))
        );
    }
}
