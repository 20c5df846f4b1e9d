//! The query structs of every list, at the edges the extractor and the structs' checks enforce:
//! a single-valued parameter given twice, each bound at and just past it, repeated and unknown
//! keys.

use test_support::on_both_backends;

use crate::helpers::{assert_error, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    a_single_valued_parameter_given_twice_is_400_naming_it,
    each_bound_is_accepted_and_just_past_it_refused,
    repeated_lists_and_unknown_parameters_are_read,
);

/// Parameter names with a valid value for each.
type Parameters = &'static [(&'static str, &'static str)];

/// Each list with the single-valued parameters it reads (in groups), a valid value for each.
const LISTS: [(&str, &[Parameters]); 7] = [
    ("/reports", &[OWN_PARAMETERS, SEARCH_PARAMETERS]),
    ("/me/reports", &[OWN_PARAMETERS]),
    (
        "/admin/reports",
        &[OWN_PARAMETERS, SEARCH_PARAMETERS, &[("overdue", "true")]],
    ),
    ("/news", &[&[("limit", "1"), ("location", "14.4,50.1")]]),
    ("/projects", &[&[("limit", "1")]]),
    ("/me/notifications", &[&[("limit", "1")]]),
    ("/me/vote-tokens", &[&[("limit", "1"), ("active", "true")]]),
];

/// The parameters of the report lists, the citizen's own included.
const OWN_PARAMETERS: Parameters = &[
    ("limit", "1"),
    ("offset", "0"),
    ("location", "14.4,50.1"),
    ("orderBy", "date"),
    ("orderDirection", "asc"),
];

/// The search parameters of the public and the admin report lists.
const SEARCH_PARAMETERS: Parameters = &[
    ("q", "a"),
    ("dateFrom", "2026-01-01T00:00:00Z"),
    ("dateTo", "2026-01-01T00:00:00Z"),
];

/// `GET path?query` with a token that may read every list.
async fn get(app: &TestApp, path: &str, query: &str) -> (u16, serde_json::Value) {
    let token = if path.starts_with("/admin") {
        app.boss()
    } else {
        app.token("citizen-1", &[])
    };
    app.get_as(&format!("{path}?{query}"), Some(&token)).await
}

async fn a_single_valued_parameter_given_twice_is_400_naming_it(app: TestApp) {
    for (path, groups) in LISTS {
        for (name, value) in groups.iter().flat_map(|group| group.iter()) {
            let once = format!("{name}={value}");
            let (status, body) = get(&app, path, &once).await;
            assert_eq!(status, 200, "{path}?{once}: {body}");
            let twice = format!("{once}&{once}");
            let (status, body) = get(&app, path, &twice).await;
            assert_error(status, &body, 400, "VALIDATION_ERROR");
            let text = body["userinfo"].as_str().unwrap();
            assert!(text.contains(name), "{path}?{twice}: {text}");
        }
    }
}

async fn each_bound_is_accepted_and_just_past_it_refused(app: TestApp) {
    let q200 = format!("q={}", "a".repeat(200));
    let q201 = format!("q={}", "a".repeat(201));
    let mut cases: Vec<(&str, String, Option<&str>)> = Vec::new();
    for (path, _) in LISTS {
        cases.extend([
            (path, "limit=1".to_owned(), None),
            (path, "limit=100".to_owned(), None),
            (path, "limit=0".to_owned(), Some("limit")),
            (path, "limit=101".to_owned(), Some("limit")),
        ]);
    }
    for path in ["/reports", "/me/reports", "/admin/reports", "/news"] {
        cases.extend([
            (path, "location=-180,-90".to_owned(), None),
            (path, "location=180,90,0.001".to_owned(), None),
            (path, "location=180.001,50".to_owned(), Some("location")),
            (path, "location=14.4,-90.001".to_owned(), Some("location")),
            (path, "location=14.4,50.1,0".to_owned(), Some("location")),
        ]);
    }
    for path in ["/reports", "/me/reports", "/admin/reports"] {
        cases.extend([
            (path, "offset=0".to_owned(), None),
            (path, "offset=1000".to_owned(), None),
            (path, "offset=-1".to_owned(), Some("offset")),
            (path, "offset=1001".to_owned(), Some("offset")),
        ]);
    }
    for path in ["/reports", "/admin/reports"] {
        cases.extend([
            (path, "q=a".to_owned(), None),
            (path, q200.clone(), None),
            (path, "q=".to_owned(), Some("q")),
            (path, q201.clone(), Some("q")),
        ]);
    }
    // `/me/reports` reads neither `q` nor the other filters of the public list.
    cases.push(("/me/reports", q201.clone(), None));
    cases.extend([
        ("/admin/reports", "overdue=false".to_owned(), None),
        ("/admin/reports", "overdue=on".to_owned(), Some("overdue")),
        ("/admin/reports", "overdue=".to_owned(), Some("overdue")),
        ("/me/vote-tokens", "active=false".to_owned(), None),
        ("/me/vote-tokens", "active=on".to_owned(), Some("active")),
        ("/me/vote-tokens", "active=".to_owned(), Some("active")),
    ]);
    for (path, query, refused) in cases {
        let (status, body) = get(&app, path, &query).await;
        match refused {
            None => assert_eq!(status, 200, "{path}?{query}: {body}"),
            Some(name) => {
                assert_error(status, &body, 400, "VALIDATION_ERROR");
                let text = body["userinfo"].as_str().unwrap();
                assert!(text.contains(name), "{path}?{query}: {text}");
            }
        }
    }
}

async fn repeated_lists_and_unknown_parameters_are_read(app: TestApp) {
    let id = uuid::Uuid::nil();
    for (path, query) in [
        (
            "/reports",
            format!("category={id}&status=open&category={id}&status=resolved"),
        ),
        (
            "/admin/reports",
            format!("category={id}&status=open&category={id}&status=resolved"),
        ),
        ("/news", format!("category={id}&category={id}")),
    ] {
        let (status, body) = get(&app, path, &query).await;
        assert_eq!(status, 200, "{path}?{query}: {body}");
    }
    for (path, _) in LISTS {
        let (status, body) = get(&app, path, "unknown=1&unknown=2").await;
        assert_eq!(status, 200, "{path}: {body}");
    }
}
