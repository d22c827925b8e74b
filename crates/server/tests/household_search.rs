//! The administrator's household search (issue 40 item 5) at a few thousand households: by name
//! and owner (letter case aside, in any script), by region, ordered by name, members and
//! creation, paged with a total, the query echoed; production's wire ignores it all.

mod common;

use common::{assert_error, TestServer};
use larder_server::store::{HouseholdFilter, HouseholdSort};
use serde_json::{json, Value};

const HOUSEHOLDS: usize = 3000;
const REGIONS: [Option<&str>; 4] = [Some("GR"), Some("hu"), Some("SI"), None];

fn name_of(n: usize) -> String {
    match n % 3 {
        0 => format!("Παπαδόπουλος {n}"),
        1 => format!("Kovács család {n}"),
        _ => format!("the Smiths {n}"),
    }
}

/// A server on `wire` whose database holds [`HOUSEHOLDS`] households (written straight into
/// the store: owners need no accounts to be listed), household `n` with `n % 5` members.
async fn server(wire: &str) -> (TestServer, String) {
    let server = TestServer::start(&["--wire", wire, "--user", "root:root-secret-1:admin"]).await;
    let admin = server.login("root", "root-secret-1").await;
    server.state.store.transaction(|tx| -> rusqlite::Result<()> {
        for n in 0..HOUSEHOLDS {
            let stamp = format!("2026-01-01T00:00:{:02}.{:03}Z", n / 1000, n % 1000);
            let doc = json!({
                "id": format!("h{n}"), "name": name_of(n), "owner_id": format!("user:owner{n}"),
                "region": REGIONS[n % 4], "metadata": {}, "created_at": stamp, "updated_at": stamp,
            });
            tx.execute(
                "INSERT INTO households (id, owner, doc) VALUES (?1, ?2, ?3)",
                rusqlite::params![format!("h{n}"), format!("user:owner{n}"), doc.to_string()],
            )?;
            for m in 0..n % 5 {
                let member = json!({"id": format!("h{n}-m{m}"), "household_id": format!("h{n}"), "name": "M", "age_group": "adult"});
                tx.execute(
                    "INSERT INTO members (id, household_id, doc) VALUES (?1, ?2, ?3)",
                    rusqlite::params![format!("h{n}-m{m}"), format!("h{n}"), member.to_string()],
                )?;
            }
        }
        Ok(())
    })
    .unwrap();
    (server, admin)
}

async fn list(server: &TestServer, admin: &str, query: &str) -> Value {
    let answer = server
        .call("GET", &format!("households?{query}"), Some(admin), None)
        .await;
    assert_eq!(answer.status, 200, "{query}: {}", answer.body);
    answer.body["result"].clone()
}

/// Every household a search finds, page after page of 500.
async fn all_pages(server: &TestServer, admin: &str, query: &str) -> (Vec<Value>, u64) {
    let mut all = Vec::new();
    loop {
        let page = list(
            server,
            admin,
            &format!("{query}&limit=500&offset={}", all.len()),
        )
        .await;
        let households = page["households"].as_array().unwrap().clone();
        let total = page["total"].as_u64().unwrap();
        let done = households.len() < 500;
        all.extend(households);
        if done {
            return (all, total);
        }
    }
}

#[tokio::test]
async fn searches_by_name_and_owner_in_any_script_and_filters_by_region() {
    let (server, admin) = server("reference").await;
    let greek = (0..HOUSEHOLDS).filter(|n| n % 3 == 0).count() as u64;
    let page = list(&server, &admin, "q=%CE%A0%CE%B1%CF%80%CE%B1%CE%B4&limit=5").await; // "Παπαδ"
    assert_eq!(page["total"], greek);
    assert_eq!(page["households"].as_array().unwrap().len(), 5);
    assert_eq!(
        page["applied"],
        json!({"q": "Παπαδ", "region": null, "sort": null, "order": "asc"})
    );
    let lower = list(&server, &admin, "q=%CF%80%CE%B1%CF%80%CE%B1%CE%B4&limit=1").await; // "παπαδ"
    assert_eq!(lower["total"], greek, "letter case aside, in Greek too");
    let accented = list(&server, &admin, "q=KOV%C3%81CS&limit=1").await; // "KOVÁCS"
    assert_eq!(
        accented["total"],
        (0..HOUSEHOLDS).filter(|n| n % 3 == 1).count() as u64
    );
    // By owner: owner12, owner120..129, owner1200..1299.
    let (owners, total) = all_pages(&server, &admin, "q=user:owner12").await;
    assert_eq!(total, 111);
    assert_eq!(owners.len(), 111);
    assert!(owners
        .iter()
        .all(|h| h["owner_id"].as_str().unwrap().starts_with("user:owner12")));
    // Region, letter case aside; with a search, both apply.
    let hungarian = list(&server, &admin, "region=HU&limit=1").await;
    assert_eq!(hungarian["total"], (HOUSEHOLDS / 4) as u64);
    let both = list(&server, &admin, "region=gr&q=smiths&limit=1").await;
    let expected = (0..HOUSEHOLDS).filter(|n| n % 4 == 0 && n % 3 == 2).count() as u64;
    assert_eq!(both["total"], expected);
    // A search that finds nothing is an empty page, not an error.
    let none = list(&server, &admin, "q=zzzz").await;
    assert_eq!(
        (none["total"].clone(), none["households"].clone()),
        (json!(0), json!([]))
    );
    // `%` and `_` are letters here, not patterns.
    assert_eq!(list(&server, &admin, "q=%25").await["total"], 0);
    assert_eq!(list(&server, &admin, "q=_").await["total"], 0);
}

#[tokio::test]
async fn orders_by_name_members_and_creation_page_after_page() {
    let (server, admin) = server("reference").await;
    let (by_name, total) = all_pages(&server, &admin, "sort=name").await;
    assert_eq!((by_name.len(), total), (HOUSEHOLDS, HOUSEHOLDS as u64));
    let names: Vec<String> = by_name
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_ascii_lowercase())
        .collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "by name, ascending");
    let mut ids: Vec<&str> = by_name.iter().map(|h| h["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(
        ids.len(),
        HOUSEHOLDS,
        "every household once across the pages"
    );

    let (by_members, _) = all_pages(&server, &admin, "sort=member_count&order=desc").await;
    let counts: Vec<u64> = by_members
        .iter()
        .map(|h| h["member_count"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(counts[0], 4);
    assert!(by_members
        .iter()
        .all(|h| h["members"].as_array().unwrap().len() as u64
            == h["member_count"].as_u64().unwrap()));

    let newest = list(&server, &admin, "sort=created_at&order=desc&limit=3").await;
    let ids: Vec<&str> = newest["households"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["h2999", "h2998", "h2997"]);
    let oldest = list(&server, &admin, "sort=created_at&limit=2&offset=1").await;
    assert_eq!(oldest["households"][0]["id"], "h1");
    assert_eq!(oldest["applied"]["order"], "asc");
}

#[tokio::test]
async fn member_counts_follow_members_written_through_the_api() {
    let server = TestServer::start(&[
        "--user",
        "root:root-secret-1:admin",
        "--user",
        "ann:ann-secret-1",
    ])
    .await;
    let admin = server.login("root", "root-secret-1").await;
    let ann = server.login("ann", "ann-secret-1").await;
    let home = server
        .call(
            "POST",
            "households",
            Some(&ann),
            Some(json!({"name": "Ann's", "members": [{"name": "A", "age_group": "adult"}]})),
        )
        .await;
    let id = home.body["result"]["id"].as_str().unwrap().to_string();
    let added = server
        .call(
            "POST",
            "members",
            Some(&ann),
            Some(json!({"household_id": id, "name": "B", "age_group": "child"})),
        )
        .await;
    let count = |server: &TestServer| {
        server.state.store.read(|c| {
            c.query_row("SELECT member_count FROM households", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
        })
    };
    assert_eq!(count(&server), 2);
    let member = added.body["result"]["id"].as_str().unwrap();
    server
        .call("DELETE", &format!("members/{member}"), Some(&ann), None)
        .await;
    assert_eq!(count(&server), 1);
    let listed = list(&server, &admin, "sort=member_count").await;
    assert_eq!(listed["households"][0]["member_count"], 1);
}

#[tokio::test]
async fn refuses_what_it_cannot_apply_and_answers_a_bare_list_when_nothing_is_asked() {
    let (server, admin) = server("reference").await;
    for query in [
        format!("q={}", "q".repeat(201)),
        format!("region={}", "r".repeat(101)),
        "sort=popularity".to_string(),
        "order=up".to_string(),
    ] {
        let answer = server
            .call("GET", &format!("households?{query}"), Some(&admin), None)
            .await;
        assert_error(&answer, 422, "request/unprocessable");
        assert_eq!(
            answer.body["error"]["errors"][0]["loc"][0], "query",
            "{query}"
        );
    }
    let plain = list(&server, &admin, "limit=2").await;
    assert!(plain.is_array(), "{plain}");
    assert_eq!(plain[0]["id"], "h0");
    // Blank search values ask for nothing.
    assert!(list(&server, &admin, "q=%20&limit=1").await.is_array());
}

#[tokio::test]
async fn production_ignores_the_search_as_fastapi_ignores_undeclared_parameters() {
    let (server, admin) = server("production").await;
    let root_home = server
        .call(
            "POST",
            "households",
            Some(&admin),
            Some(json!({"name": "Root's"})),
        )
        .await;
    assert_eq!(root_home.status, 200);
    let plain = list(&server, &admin, "limit=10").await;
    for query in [
        "q=smiths",
        "region=GR&sort=popularity&order=up",
        "sort=name&order=desc",
    ] {
        let searched = list(&server, &admin, &format!("{query}&limit=10")).await;
        assert_eq!(searched, plain, "{query}");
    }
    assert_eq!(
        plain.as_array().unwrap().len(),
        1,
        "production lists the caller's own"
    );
}

#[tokio::test]
async fn orders_are_served_by_their_indexes() {
    let (server, _) = server("reference").await;
    for sort in [
        HouseholdSort::Name,
        HouseholdSort::MemberCount,
        HouseholdSort::CreatedAt,
    ] {
        for descending in [false, true] {
            let filter = HouseholdFilter {
                sort: Some(sort),
                descending,
                ..Default::default()
            };
            let values = [
                rusqlite::types::Value::Integer(10),
                rusqlite::types::Value::Integer(0),
            ];
            let plan = server
                .state
                .store
                .query_plan(&filter.page_sql(), &values)
                .unwrap()
                .join("\n");
            assert!(
                plan.contains("USING INDEX households_by_"),
                "{sort:?}: {plan}"
            );
            assert!(!plan.contains("TEMP B-TREE"), "{sort:?}: {plan}");
        }
    }
    let filter = HouseholdFilter {
        region: Some("GR".into()),
        ..Default::default()
    };
    let values = [
        rusqlite::types::Value::Text("GR".into()),
        rusqlite::types::Value::Integer(10),
        rusqlite::types::Value::Integer(0),
    ];
    let plan = server
        .state
        .store
        .query_plan(&filter.page_sql(), &values)
        .unwrap()
        .join("\n");
    assert!(plan.contains("households_by_region"), "{plan}");
}
