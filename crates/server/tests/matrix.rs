//! The role matrix (data routes × callers, expectations derived from the collection descriptors)
//! and the ownership matrix (household routes × callers): every cell checked, nothing leaked.

mod common;

use common::records::{self, create_body, update_body, Fixtures};
use common::{Callers, TestServer};
use larder_contract::collections::guidelines::{
    EDITORIAL_POLICY, EMBEDDINGS_BACKFILL, ENRICH, ENRICH_BATCH,
};
use larder_contract::collections::{WriteRoles, ARTIFACTS, CURATORS};
use larder_contract::{Collection, IdentifierKind, Offered, COLLECTIONS};
use serde_json::{json, Value};

const GUIDE: &str = records::OPEN_GUIDE;
const TEXTBOOK: &str = records::TEXTBOOK;

fn roles_of(label: &str) -> Vec<String> {
    match label {
        "expert" => vec!["expert".into()],
        "agent" => vec!["agent".into()],
        "admin" => vec!["admin".into()],
        _ => vec![],
    }
}

/// A fresh record visible to every signed-in caller, created by the admin; its path.
async fn fresh(
    server: &TestServer,
    admin: &str,
    collection: &Collection,
    tag: &str,
    fixtures: &Fixtures,
) -> String {
    let created = server
        .call(
            "POST",
            collection.path,
            Some(admin),
            Some(create_body(collection, tag, fixtures)),
        )
        .await;
    assert_eq!(created.status, 201, "{}: {}", collection.path, created.body);
    let record = &created.body["result"];
    let identifier = match collection.identifier {
        IdentifierKind::Urn { .. } => record["urn"].as_str().unwrap(),
        IdentifierKind::Uuid => record["id"].as_str().unwrap(),
    };
    format!("{}/{identifier}", collection.path)
}

fn expected(label: &str, allowed: &WriteRoles, ok: u16) -> u16 {
    match label {
        "none" => 401,
        _ if allowed.allows(&roles_of(label)) => ok,
        _ => 403,
    }
}

/// The cells of a matrix checked so far, and those that failed.
#[derive(Default)]
struct Cells {
    cells: usize,
    failures: Vec<String>,
}

impl Cells {
    fn check(&mut self, route: String, label: &str, want: u16, answer: &common::Answer) {
        self.cells += 1;
        if answer.status != want {
            self.failures.push(format!(
                "{route} as {label}: want {want}, got {} {}",
                answer.status, answer.body
            ));
        }
        if answer.status >= 400 && answer.body["success"] != false {
            self.failures
                .push(format!("{route} as {label}: failure outside the envelope"));
        }
    }

    /// Asserts no cell failed; answers how many were checked.
    fn count(self) -> usize {
        assert!(
            self.failures.is_empty(),
            "{} of {} cells failed:\n{}",
            self.failures.len(),
            self.cells,
            self.failures.join("\n")
        );
        self.cells
    }
}

/// The demo server, every caller signed in, the admin's token and the fixtures.
async fn matrix_setup() -> (TestServer, Callers, String, Fixtures) {
    let server = TestServer::demo().await;
    let callers = server.callers().await;
    let admin = callers.admin.clone();
    let fixtures = server.fixtures(&admin).await;
    (server, callers, admin, fixtures)
}

#[tokio::test]
async fn role_matrix_over_every_collection_route() {
    let (server, callers, admin, fixtures) = matrix_setup().await;
    let mut cells = Cells::default();
    let mut check = |route: String, label: &str, want: u16, answer: &common::Answer| {
        cells.check(route, label, want, answer)
    };
    for collection in COLLECTIONS.iter() {
        let path = collection.path;
        for (label, token) in callers.all() {
            let tag = format!("m-{}-{}", path.replace('-', ""), label.replace('_', ""));
            let read = if label == "none" { 401 } else { 200 };

            let list = server
                .call("GET", &format!("{path}?limit=2"), token, None)
                .await;
            let want = match (collection.routes.list, collection.routes.children) {
                (Offered::Absent, Offered::Absent | Offered::Production) => 405,
                // Artifacts are listed per parent only: without one, a 422 (after the 401).
                (Offered::Absent, Offered::InterfaceOnly) if label != "none" => 422,
                _ => read,
            };
            check(format!("GET {path}"), label, want, &list);

            let target = fresh(&server, &admin, collection, &format!("{tag}-r"), &fixtures).await;
            let got = server.call("GET", &target, token, None).await;
            check(format!("GET {path}/id"), label, read, &got);

            let created = server
                .call(
                    "POST",
                    path,
                    token,
                    Some(create_body(collection, &tag, &fixtures)),
                )
                .await;
            check(
                format!("POST {path}"),
                label,
                expected(label, &collection.roles.create, 201),
                &created,
            );

            let patched = server
                .call("PATCH", &target, token, Some(update_body(collection)))
                .await;
            check(
                format!("PATCH {path}/id"),
                label,
                expected(label, &collection.roles.update, 200),
                &patched,
            );

            // PUT replaces every updatable field: the create body without what only a create takes.
            let mut replacement = create_body(collection, &format!("{tag}-p"), &fixtures);
            if let Some(fields) = replacement.as_object_mut() {
                fields.retain(|k, _| collection.is_updatable(k));
                fields.extend(
                    update_body(collection)
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                );
            }
            let put = server.call("PUT", &target, token, Some(replacement)).await;
            check(
                format!("PUT {path}/id"),
                label,
                expected(label, &collection.roles.update, 200),
                &put,
            );

            if collection.routes.search.by_reference() {
                let found = server
                    .call(
                        "POST",
                        &format!("{path}/search"),
                        token,
                        Some(json!({"q": "changed"})),
                    )
                    .await;
                check(format!("POST {path}/search"), label, read, &found);
            }
            if collection.routes.enhance.by_reference() {
                let enhanced = server
                    .call(
                        "PATCH",
                        &format!("{target}/enhance"),
                        token,
                        Some(json!({"agent": "extractive"})),
                    )
                    .await;
                let want = expected(label, &collection.roles.enhance, 200);
                check(format!("PATCH {path}/id/enhance"), label, want, &enhanced);
                // Enhance writes the derived fields only: anything else is refused, whoever asks.
                for smuggled in [
                    json!({"agent": "extractive", "title": "taken over", "visibility": "public"}),
                    json!({"agent": "extractive", "fields": {"status": "deleted"}}),
                    json!({"agent": "extractive", "fields": {"ai_tags": ["x"]}, "review_status": "verified"}),
                ] {
                    let refused = server
                        .call("PATCH", &format!("{target}/enhance"), token, Some(smuggled))
                        .await;
                    let want = if label == "none" {
                        401
                    } else if collection.roles.enhance.allows(&roles_of(label)) {
                        422
                    } else {
                        403
                    };
                    check(
                        format!("PATCH {path}/id/enhance (other fields)"),
                        label,
                        want,
                        &refused,
                    );
                }
                let after = server.call("GET", &target, Some(&admin), None).await;
                let untouched = after.body["result"]["title"] != "taken over"
                    && after.body["result"]["status"] != "deleted";
                check(
                    format!("GET {path}/id after refused enhancements"),
                    label,
                    if untouched { after.status } else { 0 },
                    &after,
                );
            }

            let doomed = fresh(&server, &admin, collection, &format!("{tag}-d"), &fixtures).await;
            let deleted = server.call("DELETE", &doomed, token, None).await;
            // A route that does not exist answers 405 whoever asks, before any token is read
            // (production's router, too: organizations have no DELETE).
            let want = if collection.routes.delete.by_reference() {
                expected(label, &collection.roles.delete, 200)
            } else {
                405
            };
            check(format!("DELETE {path}/id"), label, want, &deleted);

            // Every collection's autocomplete is read by every signed-in caller.
            if collection.routes.autocomplete.offered.by_reference() {
                let suggested = server
                    .call(
                        "GET",
                        &format!("{path}/autocomplete?q=a&limit=3"),
                        token,
                        None,
                    )
                    .await;
                check(format!("GET {path}/autocomplete"), label, read, &suggested);
            }
        }
    }
    let count = cells.count();
    assert!(count > 300, "{count}");
    server.stop().await;
}

#[tokio::test]
async fn role_matrix_over_the_specialised_data_routes() {
    let (server, callers, admin, _) = matrix_setup().await;
    let mut cells = Cells::default();
    let mut check = |route: String, label: &str, want: u16, answer: &common::Answer| {
        cells.check(route, label, want, answer)
    };
    let artifact = server
        .upload(Some(&admin), GUIDE, "m.txt", b"matrix".to_vec())
        .await;
    let artifact_id = artifact.body["result"]["id"].as_str().unwrap().to_string();
    let curators = CURATORS;
    let rules = server
        .call(
            "GET",
            &format!("guidelines/by-guide/{GUIDE}"),
            Some(&admin),
            None,
        )
        .await;
    let rule = rules.body["result"][0]["id"].as_str().unwrap().to_string();
    for (label, token) in callers.all() {
        let read = if label == "none" { 401 } else { 200 };
        let cases: Vec<(&str, String, Option<Value>, u16)> = vec![
            (
                "GET",
                format!("artifacts/{artifact_id}/download"),
                None,
                read,
            ),
            ("GET", format!("artifacts?parent_urn={GUIDE}"), None, read),
            ("GET", "articles/search?q=salt".into(), None, read),
            ("GET", format!("guidelines/by-guide/{GUIDE}"), None, read),
            (
                "POST",
                format!("guidelines/by-guide/{GUIDE}/search"),
                Some(json!({})),
                read,
            ),
            (
                "POST",
                format!("guidelines/by-guide/{GUIDE}/import"),
                Some(
                    json!({"guidelines": [{"rule_text": "imported", "status": "active", "review_status": "verified"}]}),
                ),
                expected(label, &curators, 200),
            ),
            (
                "GET",
                format!("textbook-passages/by-textbook/{TEXTBOOK}"),
                None,
                read,
            ),
            (
                "POST",
                format!("textbook-passages/by-textbook/{TEXTBOOK}/search"),
                Some(json!({})),
                read,
            ),
            // The machine and bulk routes of guidelines (production.md §10.5).
            (
                "PATCH",
                format!("guidelines/{rule}/enrich"),
                Some(json!({"agent": "matrix", "fields": {"nutrients": ["iron"]}})),
                expected(label, &ENRICH.roles, 200),
            ),
            (
                "POST",
                "guidelines/enrich-batch".into(),
                Some(
                    json!({"agent": "matrix", "items": [{"id": rule, "fields": {"setting": ["home"]}}], "dry_run": true}),
                ),
                expected(label, &ENRICH_BATCH.roles, 200),
            ),
            (
                "POST",
                "guidelines/editorial-policy".into(),
                Some(json!({"ids": [rule], "applicability_status": "current", "dry_run": true})),
                expected(label, &EDITORIAL_POLICY.roles, 200),
            ),
            (
                "POST",
                "guidelines/embeddings/backfill?dry_run=true".into(),
                None,
                expected(label, &EMBEDDINGS_BACKFILL.roles, 200),
            ),
        ];
        for (method, route, payload, want) in cases {
            let answer = server.call(method, &route, token, payload).await;
            check(format!("{method} {route}"), label, want, &answer);
        }
        let upload = server.upload(token, GUIDE, "u.txt", b"x".to_vec()).await;
        check(
            "POST artifacts/upload".into(),
            label,
            expected(label, &curators, 201),
            &upload,
        );
    }
    assert_eq!(cells.count(), 6 * 13);
    server.stop().await;
}

#[tokio::test]
async fn a_table_with_files_takes_the_role_that_deletes_artifacts() {
    // A food composition table any signed-in caller may delete, but not with files hanging from
    // it: those take the role that deletes artifacts.
    let (server, callers, admin, fixtures) = matrix_setup().await;
    let mut cells = Cells::default();
    let mut check = |route: String, label: &str, want: u16, answer: &common::Answer| {
        cells.check(route, label, want, answer)
    };
    let table = fresh(
        &server,
        &admin,
        &larder_contract::collections::FCTABLES,
        "m-fct-files",
        &fixtures,
    )
    .await;
    let urn = table.trim_start_matches("fctables/").to_string();
    let file = server
        .upload(Some(&admin), &urn, "t.csv", b"a,b".to_vec())
        .await;
    assert_eq!(file.status, 201, "{}", file.body);
    let by_owner = server
        .call("DELETE", &table, Some(&callers.owner_a), None)
        .await;
    check(
        format!("DELETE {table} (with files)"),
        "owner_a",
        403,
        &by_owner,
    );
    let by_expert = server
        .call("DELETE", &table, Some(&callers.expert), None)
        .await;
    check(
        format!("DELETE {table} (with files)"),
        "expert",
        200,
        &by_expert,
    );
    let gone = server
        .call(
            "GET",
            &format!("artifacts/{}", file.body["result"]["id"].as_str().unwrap()),
            Some(&admin),
            None,
        )
        .await;
    check(
        "GET artifacts/id (deleted with its table)".into(),
        "admin",
        404,
        &gone,
    );
    let _ = &ARTIFACTS;
    assert_eq!(cells.count(), 3);
    server.stop().await;
}

/// The status routes (issue 40) and the account and share routes (issue 41), for every caller:
/// health for anyone, the rest of the status page for the administrator, one's own consent and
/// links for any token, a plan shared by its household's owner or an administrator, a link
/// revoked by its owner alone, the public read for anyone.
#[tokio::test]
async fn role_matrix_over_the_status_account_and_share_routes() {
    let server = TestServer::demo().await;
    let callers: Callers = server.callers().await;
    let home = server
        .call("GET", "households/me", Some(&callers.owner_a), None)
        .await;
    let household = home.body["result"]["id"].as_str().unwrap().to_string();
    // A plan of owner A's household, in the meal-plan store's table (see tests/shares.rs).
    server.state.store.with(|conn| {
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS meal_plans (id TEXT PRIMARY KEY, household_id TEXT NOT NULL
             REFERENCES households(id) ON DELETE CASCADE, applied_on TEXT NOT NULL, created_at TEXT NOT NULL, doc TEXT NOT NULL);",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO meal_plans (id, household_id, applied_on, created_at, doc) VALUES ('matrix-plan', ?1, '2026-11-26', '2026-11-26T08:00:00Z', '{}')",
            [&household],
        )
        .unwrap();
    });
    let shared = server
        .call(
            "POST",
            "shares",
            Some(&callers.owner_a),
            Some(json!({"kind": "meal_plan", "id": "matrix-plan"})),
        )
        .await;
    let token = shared.body["result"]["token"].as_str().unwrap().to_string();
    let mut cells = Cells::default();
    let admin_only = |label: &str, ok: u16| match label {
        "none" => 401,
        "admin" => ok,
        _ => 403,
    };
    let any_token = |label: &str, ok: u16| if label == "none" { 401 } else { ok };
    for (label, who) in callers.all() {
        let share_plan = match label {
            "none" => 401,
            "owner_a" | "admin" => 201,
            _ => 403,
        };
        let cases: Vec<(&str, String, Option<Value>, u16)> = vec![
            ("GET", "system/indices".into(), None, admin_only(label, 200)),
            (
                "GET",
                "system/embeddings".into(),
                None,
                admin_only(label, 200),
            ),
            (
                "POST",
                "articles/embeddings/backfill?dry_run=true".into(),
                None,
                admin_only(label, 200),
            ),
            (
                "POST",
                "guidelines/embeddings/backfill?dry_run=true".into(),
                None,
                admin_only(label, 200),
            ),
            (
                "GET",
                "households?q=a&sort=name".into(),
                None,
                admin_only(label, 200),
            ),
            (
                "GET",
                "users/me/consent".into(),
                None,
                any_token(label, 200),
            ),
            (
                "POST",
                "users/me/consent".into(),
                Some(json!({"version": "1.0"})),
                any_token(label, 201),
            ),
            // No demo caller is a guest.
            (
                "POST",
                "users/me/claim".into(),
                Some(
                    json!({"email": format!("{label}@example.org"), "password": "a-long-enough-password"}),
                ),
                any_token(label, 403),
            ),
            ("GET", "shares".into(), None, any_token(label, 200)),
            (
                "POST",
                "shares".into(),
                Some(json!({"kind": "meal_plan", "id": "matrix-plan"})),
                share_plan,
            ),
            // Only owner A may revoke owner A's link; everyone else meets "No such share link".
            (
                "DELETE",
                format!("shares/{token}"),
                None,
                if label == "owner_a" {
                    0
                } else {
                    any_token(label, 404)
                },
            ),
        ];
        for (method, route, payload, want) in cases {
            if want == 0 {
                continue;
            }
            let answer = server.call(method, &route, who, payload).await;
            cells.check(format!("{method} {route}"), label, want, &answer);
        }
        // Open to anyone, with or without a token.
        for route in [
            "system/health".to_string(),
            format!("shares/public/{token}"),
        ] {
            let answer = server.call("GET", &route, who, None).await;
            cells.check(format!("GET {route}"), label, 200, &answer);
        }
    }
    let revoked = server
        .call(
            "DELETE",
            &format!("shares/{token}"),
            Some(&callers.owner_a),
            None,
        )
        .await;
    cells.check(format!("DELETE shares/{token}"), "owner_a", 200, &revoked);
    let gone = server
        .call("GET", &format!("shares/public/{token}"), None, None)
        .await;
    cells.check("GET shares/public (revoked)".into(), "none", 404, &gone);
    // Six callers, eleven gated cells each (owner A revokes last) and two open ones; two after.
    assert_eq!(cells.count(), 6 * 13 - 1 + 2);
    server.stop().await;
}

#[path = "matrix/ownership.rs"]
mod ownership;
