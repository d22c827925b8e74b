//! The contract of the Nutrition Data & Household API, written down once.
//!
//! Both the client (`larder-api`) and the reference service (`larder-server`), and the console's
//! screens, read these tables, so a collection, a schema, an enumeration or an error code is
//! described in one place. The tables follow production.md (the production service as its code
//! defines it); what only interface.md asks for is marked as such. This crate does no I/O.

pub mod collections;
pub mod enums;
pub mod envelope;
pub mod errors;
pub mod households;
pub mod limits;
pub mod slug;
pub mod text;
pub mod time;
pub mod types;
pub mod validate;

pub use collections::{Browsing, Collection, IdentifierKind, Offered, COLLECTIONS};
pub use envelope::{ErrorBody, ErrorEnvelope, SuccessEnvelope};
pub use errors::ErrorKind;
pub use types::{Field, Type};

/// The path prefix under every base URL.
pub const API_PREFIX: &str = "/api/v1";

/// The roles the service knows, and how production reads them from a token.
pub mod roles {
    /// Full access, including the list of every household.
    pub const ADMIN: &str = "admin";
    /// A curator of the knowledge base.
    pub const EXPERT: &str = "expert";
    /// A machine client that enhances records.
    pub const AGENT: &str = "agent";
    /// A guest account of production (production.md §8 row 2): a daily budget, then 429; a
    /// household of one adult. larder-server takes it in account specs.
    pub const GUEST: &str = "guest";
    /// Every role, in display order.
    pub const ALL: [&str; 4] = [ADMIN, EXPERT, AGENT, GUEST];
    /// Roles that see every record, whatever its review state (production.md §1.7).
    pub const PRIVILEGED_READERS: [&str; 2] = [ADMIN, EXPERT];
    /// Realm roles, spelled exactly so, that let a caller act on households they do not own
    /// (production.md §1.3: client roles and other spellings do not count here).
    pub const HOUSEHOLD_OVERRIDE: [&str; 2] = [ADMIN, AGENT];

    /// The roles production's route gates see in a token's claims: `realm_access.roles` and the
    /// `roles` of every client in `resource_access`, trimmed and lower-cased, without repeats.
    pub fn from_claims(claims: &serde_json::Value) -> Vec<String> {
        let mut roles: Vec<String> = Vec::new();
        let mut add = |list: &serde_json::Value| {
            for role in list.as_array().into_iter().flatten() {
                if let Some(role) = role.as_str() {
                    let role = role.trim().to_ascii_lowercase();
                    if !role.is_empty() && !roles.contains(&role) {
                        roles.push(role);
                    }
                }
            }
        };
        add(&claims["realm_access"]["roles"]);
        if let Some(clients) = claims["resource_access"].as_object() {
            for client in clients.values() {
                add(&client["roles"]);
            }
        }
        roles
    }

    /// The realm roles exactly as the token spells them (for the household override).
    pub fn realm_roles(claims: &serde_json::Value) -> Vec<String> {
        claims["realm_access"]["roles"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_string))
            .collect()
    }

    #[cfg(test)]
    mod tests {
        use serde_json::json;

        #[test]
        fn realm_and_every_client_lower_cased() {
            let claims = json!({
                "realm_access": {"roles": ["offline_access", "Admin "]},
                "resource_access": {"larder": {"roles": ["Expert"]}, "account": {"roles": ["admin"]}}
            });
            assert_eq!(
                super::from_claims(&claims),
                ["offline_access", "admin", "expert"]
            );
            assert_eq!(super::realm_roles(&claims), ["offline_access", "Admin "]);
            assert!(super::from_claims(&json!({})).is_empty());
        }
    }
}

/// How the console is hosted: the one Content-Security-Policy that `cargo xtask dist` writes into
/// the page and `larder-server --static` sends as a header, so the two stay in step.
pub mod hosting {
    /// The policy's directives without `connect-src`, which depends on where the APIs are.
    pub const POLICY_BASE: &[&str] = &[
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' https: data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ];

    /// The whole policy: `connect-src 'self'` plus `api_origins`, and `frame-ancestors 'none'`
    /// when sent as a header (a `<meta>` policy cannot carry it).
    pub fn policy(api_origins: &[String], header: bool) -> String {
        let mut connect = String::from("connect-src 'self'");
        for origin in api_origins {
            connect.push(' ');
            connect.push_str(origin);
        }
        let mut directives: Vec<String> = POLICY_BASE.iter().map(|d| d.to_string()).collect();
        directives.insert(3, connect);
        if header {
            directives.push("frame-ancestors 'none'".into());
        }
        directives.join("; ")
    }
}
