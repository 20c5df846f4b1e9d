//! Helpers of the officers' side suites: tokens with the admin scopes, categories and officer
//! assignments made through the admin API, and the workflow calls.
#![allow(dead_code)] // each admin module uses part of it

use reqwest::Method;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::{each, string, TestApp, ACCESS_ALL};

pub const READ: &str = "cityuser:reports:read";
pub const MANAGE: &str = "cityuser:reports:manage";
pub const CATEGORIES: &str = "cityuser:report-categories:manage";

impl TestApp {
    /// A super admin: every admin scope and access to every category.
    pub fn boss(&self) -> String {
        self.token("boss", &[READ, MANAGE, CATEGORIES, ACCESS_ALL])
    }

    /// An officer with read and manage scopes (categories through [`TestApp::assign`]).
    pub fn officer(&self, subject: &str) -> String {
        self.token(subject, &[READ, MANAGE])
    }

    /// Creates a category through the admin API.
    pub async fn admin_category(&self, name: &str, deadline_days: Option<u32>) -> Uuid {
        let (status, body) = self
            .send_json(
                Method::POST,
                "/admin/report-categories",
                &self.boss(),
                &json!({"name": name, "statement_deadline_days": deadline_days}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["category_id"].as_str().unwrap().parse().unwrap()
    }

    /// PATCH /admin/report-categories/{category} as `token` with `body`.
    pub async fn patch_category(&self, category: Uuid, token: &str, body: &Value) -> (u16, Value) {
        let path = format!("/admin/report-categories/{category}");
        self.send_json(Method::PATCH, &path, token, body).await
    }

    /// DELETE /admin/report-categories/{category} as `token`.
    pub async fn delete_category(&self, category: Uuid, token: &str) -> (u16, Value) {
        let path = format!("/admin/report-categories/{category}");
        self.request(Method::DELETE, &path, Some(token), None).await
    }

    /// Assigns `subject` to `category` through the admin API.
    pub async fn assign(&self, subject: &str, category: Uuid) {
        let (status, body) = self
            .request(
                Method::PUT,
                &format!("/admin/report-categories/{category}/officers/{subject}"),
                Some(&self.boss()),
                None,
            )
            .await;
        assert_eq!(status, 204, "{body}");
    }

    /// POST /admin/issues/{issue}/{action} (accept, resolve) as `token`.
    pub async fn step(&self, issue: Uuid, action: &str, token: &str) -> (u16, Value) {
        self.request(
            Method::POST,
            &format!("/admin/issues/{issue}/{action}"),
            Some(token),
            None,
        )
        .await
    }

    /// Moves an issue; answers the new issue's id.
    pub async fn move_to(&self, issue: Uuid, category: Uuid, token: &str) -> (u16, Value) {
        let path = format!("/admin/issues/{issue}/move");
        self.post_json(&path, token, &json!({ "category_id": category }))
            .await
    }

    /// Handles a report in a further category; answers the new issue.
    pub async fn open_in(&self, report: Uuid, category: Uuid, token: &str) -> (u16, Value) {
        let path = format!("/admin/reports/{report}/issues");
        self.post_json(&path, token, &json!({ "category_id": category }))
            .await
    }

    pub async fn mark_duplicate(&self, issue: Uuid, parent: Uuid, token: &str) -> (u16, Value) {
        let path = format!("/admin/issues/{issue}/duplicate-of");
        self.post_json(&path, token, &json!({ "parent_id": parent }))
            .await
    }

    /// POST `body` to `path` as `token`.
    pub async fn post_json(&self, path: &str, token: &str, body: &Value) -> (u16, Value) {
        self.send_json(Method::POST, path, token, body).await
    }

    /// PUT /admin/reports/{report}/explicit as `token`: marks the report's media explicit or not.
    pub async fn set_explicit(&self, report: Uuid, explicit: bool, token: &str) -> (u16, Value) {
        let path = format!("/admin/reports/{report}/explicit");
        let body = json!({ "explicit": explicit });
        self.send_json(Method::PUT, &path, token, &body).await
    }

    /// POST a statement (multipart) as `token`.
    pub async fn statement(
        &self,
        issue: Uuid,
        form: reqwest::multipart::Form,
        token: &str,
    ) -> (u16, Value) {
        crate::helpers::answer(
            self.http
                .post(format!("{}/admin/issues/{issue}/statements", self.base))
                .bearer_auth(token)
                .multipart(form),
        )
        .await
    }

    /// GET /admin/reports?{query} as `token`, answering 200.
    pub async fn admin_list(&self, query: &str, token: &str) -> Value {
        let (status, body) = self
            .get_as(&format!("/admin/reports?{query}"), Some(token))
            .await;
        assert_eq!(status, 200, "{query}: {body}");
        body
    }

    /// The issues of a report as `token` sees them, answering 200.
    pub async fn admin_issues(&self, report: Uuid, token: &str) -> Value {
        let (status, body) = self
            .get_as(&format!("/admin/reports/{report}/issues"), Some(token))
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

/// The report ids of an admin list, in order.
pub fn ids(body: &Value) -> Vec<String> {
    crate::helpers::column(body, "id")
}

/// The title of each row, in order.
pub fn titles(body: &Value) -> Vec<String> {
    crate::helpers::column(body, "title")
}

/// (category_name, status) of each issue of the row of `report`.
pub fn row_issues(body: &Value, report: Uuid) -> Vec<(String, String)> {
    let row = body["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == report.to_string())
        .unwrap_or_else(|| panic!("{report} not listed: {body}"));
    each(&row["issues"], |i| {
        (string(&i["category_name"]), string(&i["status"]))
    })
}

/// The id in `body[field]`.
pub fn id(body: &Value, field: &str) -> Uuid {
    body[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} missing: {body}"))
        .parse()
        .unwrap()
}
