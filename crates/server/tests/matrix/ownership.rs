//! Ownership: no caller reads, changes or deletes what another household or member holds, on
//! any route.

use super::*;

/// Household routes over owner A's household, for every caller.
#[tokio::test]
async fn ownership_matrix_has_no_leaks() {
    let server = TestServer::demo().await;
    let callers: Callers = server.callers().await;
    let home = server
        .call("GET", "households/me", Some(&callers.owner_a), None)
        .await;
    let home = home.body["result"].clone();
    let id = home["id"].as_str().unwrap().to_string();
    let member = home["members"][0]["id"].as_str().unwrap().to_string();
    // Owner B has a household of their own, to show they still can't reach A's.
    let b_home = server
        .call(
            "POST",
            "households",
            Some(&callers.owner_b),
            Some(json!({"name": "B's home", "members": [{"name": "Bee", "age_group": "adult"}]})),
        )
        .await;
    assert_eq!(b_home.status, 201, "{}", b_home.body);
    let secrets: Vec<String> = std::iter::once(home["name"].as_str().unwrap().to_string())
        .chain(
            home["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["name"].as_str().unwrap().to_string()),
        )
        .collect();

    let mut cells = 0;
    let mut failures = Vec::new();
    for (label, token) in callers.all() {
        // Production: the owner, or a realm admin or agent, may read and change a household.
        let reader = matches!(label, "owner_a" | "agent" | "admin");
        let writer = reader;
        let want = |allowed: bool, ok: u16| match (label, allowed) {
            ("none", _) => 401,
            (_, true) => ok,
            _ => 403,
        };
        // A member made by the admin for each caller, so destructive cells don't interfere.
        let spare = server
            .call("POST", "members", Some(&callers.admin), Some(json!({"household_id": id, "name": format!("Spare {label}"), "age_group": "adult", "profile": {"dietary_groups": []}})))
            .await;
        let spare = spare.body["result"]["id"].as_str().unwrap().to_string();
        let bare = server
            .call("POST", "members", Some(&callers.admin), Some(json!({"household_id": id, "name": format!("Bare {label}"), "age_group": "child"})))
            .await;
        let bare = bare.body["result"]["id"].as_str().unwrap().to_string();
        let cases: Vec<(&str, String, Option<Value>, u16)> = vec![
            ("GET", format!("households/{id}"), None, want(reader, 200)),
            (
                "PATCH",
                format!("households/{id}"),
                Some(json!({"region": "GB"})),
                want(writer, 200),
            ),
            (
                "GET",
                format!("members?household_id={id}"),
                None,
                want(reader, 200),
            ),
            (
                "POST",
                "members".into(),
                Some(
                    json!({"household_id": id, "name": format!("New {label}"), "age_group": "teen"}),
                ),
                want(writer, 201),
            ),
            ("GET", format!("members/{member}"), None, want(reader, 200)),
            (
                "PATCH",
                format!("members/{member}"),
                Some(json!({"image_url": "https://example.org/x.png"})),
                want(writer, 200),
            ),
            (
                "GET",
                format!("members/{member}/profile"),
                None,
                want(reader, 200),
            ),
            (
                "PATCH",
                format!("members/{member}/profile"),
                Some(json!({"allergies": []})),
                want(writer, 200),
            ),
            (
                "POST",
                format!("members/{bare}/profile"),
                Some(json!({"dietary_groups": ["vegan"]})),
                want(writer, 201),
            ),
            (
                "DELETE",
                format!("members/{spare}/profile"),
                None,
                want(writer, 200),
            ),
            (
                "DELETE",
                format!("members/{spare}"),
                None,
                want(writer, 200),
            ),
            (
                "GET",
                "households?limit=100".into(),
                None,
                want(label == "admin", 200),
            ),
        ];
        for (method, route, payload, expected) in cases {
            let answer = server.call(method, &route, token, payload).await;
            cells += 1;
            if answer.status != expected {
                failures.push(format!(
                    "{method} {route} as {label}: want {expected}, got {} {}",
                    answer.status, answer.body
                ));
            }
            if answer.status >= 400 {
                let text = answer.body["error"].to_string();
                for secret in &secrets {
                    if text.contains(secret.as_str()) {
                        failures.push(format!("{method} {route} as {label} leaked {secret:?}"));
                    }
                }
            }
        }
        let me = server.call("GET", "households/me", token, None).await;
        cells += 1;
        let mine = match label {
            "none" => me.status == 401,
            "owner_a" => me.body["result"]["id"] == id.as_str(),
            "owner_b" => me.status == 200 && me.body["result"]["id"] != id.as_str(),
            _ => me.status == 404,
        };
        if !mine {
            failures.push(format!(
                "households/me as {label}: {} {}",
                me.status, me.body
            ));
        }
    }
    // Deleting: refused to all but the owner, the admin and the agent.
    for (label, token) in callers.all() {
        if matches!(label, "owner_a" | "admin" | "agent") {
            continue;
        }
        let answer = server
            .call("DELETE", &format!("households/{id}"), token, None)
            .await;
        cells += 1;
        if answer.status != if label == "none" { 401 } else { 403 } {
            failures.push(format!("DELETE households as {label}: {}", answer.status));
        }
    }
    let by_owner = server
        .call(
            "DELETE",
            &format!("households/{id}"),
            Some(&callers.owner_a),
            None,
        )
        .await;
    assert_eq!(by_owner.status, 200);
    let recreated = server
        .call(
            "POST",
            "households",
            Some(&callers.owner_a),
            Some(json!({"name": "Again"})),
        )
        .await;
    assert_eq!(recreated.status, 201);
    let again_id = recreated.body["result"]["id"].as_str().unwrap();
    let by_admin = server
        .call(
            "DELETE",
            &format!("households/{again_id}"),
            Some(&callers.admin),
            None,
        )
        .await;
    assert_eq!(by_admin.status, 200);
    assert!(
        failures.is_empty(),
        "{} of {cells} cells failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    server.stop().await;
}
