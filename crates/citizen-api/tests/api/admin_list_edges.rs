//! `GET /admin/reports`: votes and refused parameters.

use test_support::on_both_backends;

use crate::admin_helpers::ids;
use crate::admin_list::{city, s};
use crate::helpers::{assert_error, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    votes_count_the_active_tokens_and_order_the_list,
    bad_parameters_are_400,
    the_scope_is_checked_before_the_parameters,
);

async fn votes_count_the_active_tokens_and_order_the_list(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    let citizen = app.token("citizen-1", &[]);
    for (target, count) in [(c.a, 3), (c.c, 1)] {
        let (status, body) = app.vote(&citizen, &target.to_string(), count).await;
        assert_eq!(status, 200, "{body}");
    }
    let body = app.admin_list("orderBy=votes", &boss).await;
    assert_eq!(ids(&body), s(&[c.a, c.c, c.d, c.b]));
    assert_eq!(
        crate::helpers::column(&body, "votes_count"),
        ["3", "1", "0", "0"]
    );
    let (status, _) = app.revoke_votes(&citizen, &c.a.to_string(), 3).await;
    assert_eq!(status, 200);
    let body = app.admin_list("orderBy=votes", &boss).await;
    assert_eq!(ids(&body), s(&[c.c, c.d, c.b, c.a]));
    let body = app
        .admin_list("orderBy=votes&orderDirection=asc", &boss)
        .await;
    assert_eq!(ids(&body), s(&[c.a, c.b, c.d, c.c]));
}

async fn bad_parameters_are_400(app: TestApp) {
    let boss = app.boss();
    for query in [
        "overdue=yes",
        "overdue=true&overdue=false",
        "limit=0",
        "offset=1001",
        "status=new",
        "category=x",
        "orderBy=location",
        "q=",
    ] {
        let (status, body) = app
            .get_as(&format!("/admin/reports?{query}"), Some(&boss))
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}

/// A caller without the right learns nothing from validation answers: 401 without a token and
/// 403 without either scope, even for a malformed query.
async fn the_scope_is_checked_before_the_parameters(app: TestApp) {
    let citizen = app.token("citizen-1", &[]);
    for query in ["overdue=yes", "limit=0", "category=x"] {
        let path = format!("/admin/reports?{query}");
        let (status, body) = app.get_as(&path, None).await;
        assert_error(status, &body, 401, "UNAUTHORIZED");
        let (status, body) = app.get_as(&path, Some(&citizen)).await;
        assert_error(status, &body, 403, "FORBIDDEN");
    }
}
