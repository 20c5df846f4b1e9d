//! Statements with files, media deletion (report and statement files, the stored file too) and
//! the audit trail of a report.

use reqwest::multipart::Form;
use reqwest::Method;
use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::id;
use crate::helpers::{assert_error, file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    statements_carry_files_and_show_in_the_timeline,
    bad_statements_are_400_and_leave_no_file,
    report_and_statement_files_are_deleted_with_their_bytes,
    the_audit_trail_names_every_change_with_actor_and_time,
    explicit_hides_the_media_from_the_public_only,
    one_report_as_officers_see_it,
);

/// A report filed with one photo through the API, moved into Roads (worked by `o-roads`):
/// (report, photo media id, Roads issue).
async fn with_photo(app: &TestApp) -> (Uuid, Uuid, Uuid, Uuid) {
    let roads = app.admin_category("Roads", None).await;
    app.assign("o-roads", roads).await;
    let (jpeg, _) = images::jpeg();
    let f = form("Pothole", "Deep").part("media", file(jpeg, "hole.jpg"));
    let (status, _, body) = app.post_report(f, Some(&app.token("citizen-1", &[]))).await;
    assert_eq!(status, 201, "{body}");
    let report = id(&body, "id");
    let media = id(&body["media"][0], "media_id");
    let issues = app.admin_issues(report, &app.boss()).await;
    let first = id(&issues["issues"][0], "issue_id");
    let (_, moved) = app.move_to(first, roads, &app.boss()).await;
    (report, media, id(&moved, "issue_id"), roads)
}

fn statement_form(text: &str, final_: &str) -> Form {
    let (jpeg, _) = images::jpeg();
    Form::new()
        .text("text", text.to_owned())
        .text("final", final_.to_owned())
        .part("media", file(jpeg, "crew.jpg"))
}

async fn statements_carry_files_and_show_in_the_timeline(app: TestApp) {
    let (report, _, issue, _) = with_photo(&app).await;
    let o = app.officer("o-roads");
    app.clock.set(app.time(100));
    let (status, body) = app
        .statement(issue, statement_form("Crew sent", "false"), &o)
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["author"], "o-roads");
    assert_eq!(body["final"], false);
    assert_eq!(body["media"][0]["original_filename"], "crew.jpg");
    assert_eq!(body["media"][0]["media_type"], "image/jpeg");
    let issues = app.admin_issues(report, &o).await;
    let statements = issues["issues"][0]["statements"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(statements.len(), 1);
    assert_eq!(statements[0]["text"], "Crew sent");
    // Processed from the first act on (the move at the start instant).
    assert!(app.get_ok(&format!("/reports/{report}")).await["processed_at"].is_string());
    // While the issue is open the statement shows nowhere in public; after accepting, under
    // the accepted step, without author.
    let timeline = app.get_ok(&format!("/reports/{report}/status")).await;
    assert_eq!(timeline["statuses"], serde_json::json!([]));
    app.step(issue, "accept", &o).await;
    let (status, _) = app
        .statement(
            issue,
            Form::new().text("text", "Done").text("final", "true"),
            &o,
        )
        .await;
    assert_eq!(status, 201);
    let timeline = app.get_ok(&format!("/reports/{report}/status")).await;
    let shown = &timeline["statuses"][0]["statements"];
    assert_eq!(shown[0]["text"], "Done");
    assert_eq!(shown[0]["final"], true);
    assert_eq!(shown[1]["text"], "Crew sent");
    assert_eq!(shown[1]["media"][0]["original_filename"], "crew.jpg");
    assert!(shown[1].get("author").is_none());
}

async fn bad_statements_are_400_and_leave_no_file(app: TestApp) {
    let (_, _, issue, _) = with_photo(&app).await;
    let o = app.officer("o-roads");
    let before = app.stored_files().len();
    let (jpeg, _) = images::jpeg();
    for f in [
        // The file first, then a bad value: the stored file is removed again.
        Form::new()
            .part("media", file(jpeg.clone(), "a.jpg"))
            .text("text", "ok")
            .text("final", "maybe"),
        Form::new().part("media", file(jpeg.clone(), "a.jpg")),
        Form::new().text("text", "  "),
        Form::new().text("text", "x".repeat(4097)),
        Form::new().text("text", "ok").text("other", "x"),
    ] {
        let (status, body) = app.statement(issue, f, &o).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    assert_eq!(app.stored_files().len(), before);
    let (status, body) = app
        .statement(issue, Form::new().text("text", "x".repeat(4096)), &o)
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = app
        .statement(
            issue,
            Form::new().text("text", "x"),
            &app.token("o-roads", &[crate::admin_helpers::READ]),
        )
        .await;
    assert_error(status, &body, 403, "FORBIDDEN");
}

async fn report_and_statement_files_are_deleted_with_their_bytes(app: TestApp) {
    let (report, photo, issue, _) = with_photo(&app).await;
    let o = app.officer("o-roads");
    let (_, statement) = app
        .statement(issue, statement_form("Crew sent", "false"), &o)
        .await;
    let crew = id(&statement["media"][0], "media_id");
    let files = app.stored_files().len();
    assert_eq!(files, 2);
    let delete = |media: Uuid, token: String| {
        let app = &app;
        async move {
            app.request(
                Method::DELETE,
                &format!("/admin/reports/{report}/media/{media}"),
                Some(&token),
                None,
            )
            .await
        }
    };
    // Another category's officer, a reader, an unknown file, another report: refused.
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-light", light).await;
    let (status, body) = delete(photo, app.officer("o-light")).await;
    assert_error(status, &body, 404, "MEDIA_NOT_FOUND");
    let (status, body) = delete(photo, app.token("o-roads", &[crate::admin_helpers::READ])).await;
    assert_error(status, &body, 403, "FORBIDDEN");
    let (status, body) = delete(Uuid::now_v7(), o.clone()).await;
    assert_error(status, &body, 404, "MEDIA_NOT_FOUND");
    let (status, body) = app
        .request(
            Method::DELETE,
            &format!("/admin/reports/{}/media/{photo}", Uuid::now_v7()),
            Some(&o),
            None,
        )
        .await;
    assert_error(status, &body, 404, "MEDIA_NOT_FOUND");
    assert_eq!(app.stored_files().len(), 2);
    // The report's photo.
    let (status, _) = delete(photo, o.clone()).await;
    assert_eq!(status, 204);
    assert_eq!(app.stored_files().len(), 1);
    let detail = app.get_ok(&format!("/reports/{report}")).await;
    assert_eq!(detail["media"], serde_json::json!([]));
    let (status, _) = app.get(&format!("/media/{photo}")).await;
    assert_eq!(status, 404);
    let (status, body) = delete(photo, o.clone()).await;
    assert_error(status, &body, 404, "MEDIA_NOT_FOUND");
    // The statement's file.
    let (status, _) = delete(crew, o.clone()).await;
    assert_eq!(status, 204);
    assert!(app.stored_files().is_empty());
    let issues = app.admin_issues(report, &o).await;
    assert_eq!(
        issues["issues"][0]["statements"][0]["media"],
        serde_json::json!([])
    );
}

async fn the_audit_trail_names_every_change_with_actor_and_time(app: TestApp) {
    let (report, photo, issue, _) = with_photo(&app).await;
    let o = app.officer("o-roads");
    app.clock.set(app.time(50));
    app.step(issue, "accept", &o).await;
    app.clock.set(app.time(60));
    app.statement(issue, Form::new().text("text", "Crew sent"), &o)
        .await;
    app.clock.set(app.time(70));
    app.request(
        Method::DELETE,
        &format!("/admin/reports/{report}/media/{photo}"),
        Some(&o),
        None,
    )
    .await;
    app.clock.set(app.time(80));
    app.step(issue, "resolve", &o).await;
    let (status, body) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&o))
        .await;
    assert_eq!(status, 200, "{body}");
    let entries: Vec<(String, Value, String)> = body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap().to_owned(),
                e["actor"].clone(),
                e["at"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let at = |s: i64| {
        app.time(s)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    };
    let start = app
        .start
        .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    // The officer sees the Roads issue's entries and the report's; the opening of the first
    // issue (in the default category) belongs to another category, but its move is shown.
    assert_eq!(
        entries,
        [
            ("status:open".into(), Value::from("boss"), start.clone()),
            ("status:accepted".into(), Value::from("o-roads"), at(50)),
            ("statement".into(), Value::from("o-roads"), at(60)),
            ("media_deleted".into(), Value::from("o-roads"), at(70)),
            ("status:resolved".into(), Value::from("o-roads"), at(80)),
        ]
    );
    assert_eq!(body["entries"][3]["detail"]["media_id"], photo.to_string());
    // The boss sees the filing (by the citizen) and the move too.
    let (_, body) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&app.boss()))
        .await;
    let actions: Vec<(&str, &Value)> = body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), &e["actor"]))
        .collect();
    assert_eq!(actions.len(), 7, "{body}");
    assert_eq!(actions[0], ("status:open", &Value::from("citizen-1")));
    assert_eq!(actions[1].0, "status:moved");
    // An officer of no category of the report: 404.
    let (status, body) = app
        .get_as(
            &format!("/admin/reports/{report}/audit"),
            Some(&app.officer("o-light")),
        )
        .await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
}

async fn explicit_hides_the_media_from_the_public_only(app: TestApp) {
    let (report, photo, _, _) = with_photo(&app).await;
    let o = app.officer("o-roads");
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-light", light).await;
    let (status, body) = app
        .set_explicit(report, true, &app.officer("o-light"))
        .await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
    let (status, body) = app.set_explicit(report, true, &o).await;
    assert_eq!((status, body), (200, serde_json::json!({"explicit": true})));
    let public = app.get_ok(&format!("/reports/{report}")).await;
    assert_eq!(
        (public["explicit"].as_bool(), public["media"].clone()),
        (Some(true), serde_json::json!([]))
    );
    let (_, own) = app
        .get_as(
            &format!("/reports/{report}"),
            Some(&app.token("citizen-1", &[])),
        )
        .await;
    assert_eq!(own["media"][0]["media_id"], photo.to_string());
    let list = app.admin_list("", &o).await;
    assert_eq!(
        list["reports"][0]["media"][0]["media_id"],
        photo.to_string()
    );
    let (status, _) = app.set_explicit(report, false, &o).await;
    assert_eq!(status, 200);
    let public = app.get_ok(&format!("/reports/{report}")).await;
    assert_eq!(public["media"][0]["media_id"], photo.to_string());
    let (_, audit) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&o))
        .await;
    let explicit: Vec<&Value> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "explicit_set")
        .map(|e| &e["detail"]["explicit"])
        .collect();
    assert_eq!(explicit, [&Value::Bool(true), &Value::Bool(false)]);
}

/// `GET /admin/reports/{reportId}` (the console's report page): the list's row for one report,
/// with its photos while explicit, to an officer of its category only.
async fn one_report_as_officers_see_it(app: TestApp) {
    let (report, photo, issue, roads) = with_photo(&app).await;
    let o = app.officer("o-roads");
    let (status, _) = app.set_explicit(report, true, &o).await;
    assert_eq!(status, 200);
    let path = format!("/admin/reports/{report}");
    let (status, body) = app.get_as(&path, Some(&o)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], report.to_string());
    assert_eq!(body["status"], "open");
    assert_eq!(body["media"][0]["media_id"], photo.to_string());
    assert_eq!(body["issues"].as_array().map(Vec::len), Some(1), "{body}");
    assert_eq!(body["issues"][0]["issue_id"], issue.to_string());
    assert_eq!(body["issues"][0]["category_id"], roads.to_string());
    // The same row as the admin list's.
    let list = app.admin_list("", &o).await;
    assert_eq!(list["reports"][0], body);
    // Another category's officer, an unknown report, a citizen, nobody.
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-light", light).await;
    let (status, body) = app.get_as(&path, Some(&app.officer("o-light"))).await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
    let (status, body) = app
        .get_as(&format!("/admin/reports/{}", Uuid::new_v4()), Some(&o))
        .await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
    let (status, body) = app.get_as(&path, Some(&app.token("citizen-1", &[]))).await;
    assert_error(status, &body, 403, "FORBIDDEN");
    let (status, body) = app.get_as(&path, None).await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
}
