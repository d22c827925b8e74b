//! A provider's person beside this server's own accounts: never one of its guests, and every
//! household only with a realm role.

use super::*;
use common::assert_error;

#[tokio::test]
async fn a_provider_user_named_as_a_guest_cannot_claim_the_guest_account() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &["--user", "gus:gus-secret-1:guest"]).await;
    let token = keys()
        .rsa
        .sign(&with(&issuer, |c| c["preferred_username"] = json!("gus")));
    let body = json!({"email": "mallory@example.org", "password": "a-long-enough-password"});
    let refused = server
        .call("POST", "users/me/claim", Some(&token), Some(body))
        .await;
    assert_error(&refused, 403, "auth/forbidden");
    assert_eq!(
        refused.body["error"]["detail"],
        "This account is not a guest account"
    );
    // The guest's account is untouched: its own password still signs in, still a guest.
    let gus = server.login("gus", "gus-secret-1").await;
    let ping = server.call("GET", "system/ping", Some(&gus), None).await;
    assert_eq!(
        ping.body["result"]["roles"],
        json!(["guest"]),
        "{}",
        ping.body
    );
    server.stop().await;
}

#[tokio::test]
async fn admin_as_a_clients_role_lists_only_its_own_households() {
    let issuer = Issuer::start(&[&keys().rsa]).await;
    let server = server_for(&issuer, &[]).await;
    let client_admin = keys().rsa.sign(&with(&issuer, |c| {
        c["resource_access"]["reports"] = json!({"roles": ["admin"]});
    }));
    let listed = server
        .call("GET", "households", Some(&client_admin), None)
        .await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let households = listed.body["result"]
        .as_array()
        .expect("the plain list of the caller's own");
    assert!(households.is_empty(), "{households:?}");
    // The realm's admin lists the demo's households (every one).
    let realm_admin = keys().rsa.sign(&with(&issuer, |c| {
        c["realm_access"]["roles"] = json!(["admin"]);
    }));
    let every = server
        .call("GET", "households", Some(&realm_admin), None)
        .await;
    assert_eq!(every.status, 200);
    let count = every.body["result"]
        .as_array()
        .or_else(|| every.body["result"]["households"].as_array())
        .map_or(0, Vec::len);
    assert!(count > 1, "{}", every.body);
    server.stop().await;
}
