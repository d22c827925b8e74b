//! The two dialects side by side: every status, shape, route offer and order that differs
//! between the wires, as data ([`REFERENCE`], [`PRODUCTION`]), and the answers built from it.
//!
//! Each field of [`Dialect`] says what production does and where that is recorded; the
//! reference service answers as interface.md asks, keeping production's rules otherwise.

use axum::http::StatusCode;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine;
use larder_contract::Offered;
use rand::RngCore;
use serde_json::{json, Map, Value};

use super::words::{fill, About, Said};
use crate::store::MemberOrder;

/// The client under which the production wire puts client roles.
pub const CONSOLE_CLIENT: &str = "larder-console";

/// What one wire answers where the wires differ.
#[derive(Debug)]
pub struct Dialect {
    /// The wire's name, as `--wire` spells it.
    pub name: &'static str,
    /// Which column of the words table ([`Said::words`]) this wire speaks.
    words: Column,
    /// Whether routes only interface.md asks for are served (the contract's
    /// [`Offered::InterfaceOnly`]); production answers them with a bare 404 or 405.
    interface_routes: bool,
    /// The status of a success that created something: production answers every success with
    /// 200 (realprod's ANSWERS.md, "Envelopes").
    pub created: StatusCode,
    /// Whether a failed validation of the systemic service (households, members, profiles)
    /// lists its problems in `errors`: production's carries only "Validation failed"
    /// (production.md §9; ANSWERS.md, "Envelopes").
    pub systemic_field_errors: bool,
    /// Whether a path or method no route serves is answered with FastAPI's bare
    /// `{"detail": ...}` rather than the envelope (production.md §1.1).
    pub bare_routing_misses: bool,
    /// The body of a sign-in answer.
    pub sign_in: SignInAnswer,
    /// Where a token carries its roles.
    pub token_roles: TokenRoles,
    /// What `system/ping` answers.
    pub ping: Ping,
    /// How stamps read from the database are written.
    pub stamps: Stamps,
    /// A household answered outside `households/me` (create, get, patch).
    pub household: HouseholdShape,
    /// What `GET households` lists.
    pub households_list: HouseholdsList,
    /// The order of `GET members`: production lists the newest first (production.md §4.1).
    pub member_order: MemberOrder,
    /// Whether `PATCH members/{id}` that creates the member's profile answers `profile: null`:
    /// production answers the member it read before creating it (ANSWERS.md, surprise 6).
    pub member_patch_hides_new_profile: bool,
    /// Whether `PATCH artifacts/{id}` answers `null` after checking the body, as production
    /// does, rather than the updated record.
    pub artifact_patch_answers_null: bool,
    /// Whether a download carries `Content-Length`: production streams without one
    /// (production.md §2.7).
    pub download_length: bool,
    /// Whether enhance takes `fields` as a list of names, or none at all, and derives the values
    /// with the service's own agent (a reference-service extension); production needs the
    /// values (production.md §5.3).
    pub enhance_derives: bool,
    /// Whether a reading-policy run takes `all: true`, the explicit "the whole corpus" a
    /// selection matching every record needs (issue 36): production's schema knows no such key
    /// and refuses it like any unknown key (production.md §8 row 4).
    pub policy_takes_all: bool,
    /// How `{c}/autocomplete` matches `q`: production runs its full-text search, whole words
    /// only ("medit" finds nothing); the reference service matches each word as the beginning
    /// of a word ("medit" finds "Mediterranean diet") (production.md §10.7).
    pub autocomplete_match: AutocompleteMatch,
    /// Whether an autocomplete the contract marks as failing in production (guidelines': its
    /// hits fail production's own validation) answers 500 once anything matches, as production
    /// does (production.md §10.7); without hits it answers `[]` there too.
    pub broken_autocomplete_fails: bool,
    /// Whether refused enrichment values are listed in `errors`: production's `DataError`
    /// carries only its sentence, `Invalid enrichment values: …` (production.md §1.1, §10.5).
    pub enrichment_errors_listed: bool,
    /// Dietary groups this wire's schema takes but its storage cannot hold: every write carrying
    /// one (a profile's, a nested member profile's) fails with 500 and stores nothing, as
    /// production's does for `diabetic_friendly`, which its storage enum lacks (production.md
    /// §4.2 and §9; realprod's ANSWERS.md, surprise 7 and row 29).
    pub unstorable_dietary_groups: &'static [&'static str],
    /// Whether a search of a collection that cannot narrow its hits (`Routes::search_narrows`)
    /// fails with 500 when its `fl` leaves out a required field and anything is found, as
    /// production's does: it validates each hit against the full record (production.md §1.6).
    pub narrow_whole_hits_fail: bool,
}

/// How an autocomplete matches its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutocompleteMatch {
    /// Each word matches the words it begins (and its own stem).
    WordPrefix,
    /// Each word matches its stem only, as a search does.
    FullText,
}

impl AutocompleteMatch {
    /// Whether words match as beginnings.
    pub fn by_prefix(self) -> bool {
        self == AutocompleteMatch::WordPrefix
    }
}

/// A column of the words table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Reference,
    Production,
}

/// The body of a sign-in answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInAnswer {
    /// `{token, token_type, expires_in}` (interface.md).
    Larder,
    /// Keycloak's token answer, passed through as production does (production.md §4.4):
    /// `access_token`, a refresh token, `session_state`, `scope`, ...
    Keycloak,
}

/// Where a token carries its roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenRoles {
    /// Every role a realm role (`realm_access.roles`).
    Realm,
    /// `expert` a client role spelled `Expert` under [`CONSOLE_CLIENT`], as a Keycloak realm set
    /// up by hand may have it; the others realm roles (production.md §1.3: the route gate reads
    /// every client's roles, lower-cased).
    ExpertAsClientRole,
}

/// What `system/ping` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ping {
    /// Who is asking: `{authenticated, kind, username or client_id, roles}`.
    WhoAsks,
    /// `"pong"`, and no identity (production.md §4.4).
    Pong,
}

/// How stamps read from the database are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamps {
    /// As they were stored: RFC 3339 with their zone.
    Zoned,
    /// As PostgreSQL's `TIMESTAMP` columns read back in production: no zone, microseconds
    /// (`2026-11-26T17:42:43.282000`; ANSWERS.md, surprise 8). Stamps production has just set in
    /// Python keep their zone; the handlers that answer those put them back after this.
    NaiveAsReadBack,
}

/// A household answered outside `households/me`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseholdShape {
    /// With its members.
    WithMembers,
    /// `members: []`, and `member_count` 0 after a PATCH, as production answers
    /// (ANSWERS.md, surprise 3); stamps as [`Dialect::stamps`] writes them.
    MembersOnlyOnMe,
}

/// What `GET households` lists (an administrator's route).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseholdsList {
    /// Every household, with its members (interface.md); searched by name and owner, filtered
    /// by region and ordered as `q`, `region`, `sort` and `order` ask (issue 40), answering
    /// `{households, total, applied}` when any of them is sent.
    Every,
    /// Only the caller's own, without `members` and with `member_count` 0, as production does
    /// (ANSWERS.md, surprise 2); production's list takes only `limit` and `offset` (production.md
    /// §4.1) and ignores any other parameter, as FastAPI ignores what a route does not declare.
    OwnWithoutMembers,
}

/// The reference service's wire.
pub static REFERENCE: Dialect = Dialect {
    name: "reference",
    words: Column::Reference,
    interface_routes: true,
    created: StatusCode::CREATED,
    systemic_field_errors: true,
    bare_routing_misses: false,
    sign_in: SignInAnswer::Larder,
    token_roles: TokenRoles::Realm,
    ping: Ping::WhoAsks,
    stamps: Stamps::Zoned,
    household: HouseholdShape::WithMembers,
    households_list: HouseholdsList::Every,
    member_order: MemberOrder::Oldest,
    member_patch_hides_new_profile: false,
    artifact_patch_answers_null: false,
    download_length: true,
    enhance_derives: true,
    policy_takes_all: true,
    autocomplete_match: AutocompleteMatch::WordPrefix,
    broken_autocomplete_fails: false,
    enrichment_errors_listed: true,
    unstorable_dietary_groups: &[],
    narrow_whole_hits_fail: false,
};

/// Production's wire.
pub static PRODUCTION: Dialect = Dialect {
    name: "production",
    words: Column::Production,
    interface_routes: false,
    created: StatusCode::OK,
    systemic_field_errors: false,
    bare_routing_misses: true,
    sign_in: SignInAnswer::Keycloak,
    token_roles: TokenRoles::ExpertAsClientRole,
    ping: Ping::Pong,
    stamps: Stamps::NaiveAsReadBack,
    household: HouseholdShape::MembersOnlyOnMe,
    households_list: HouseholdsList::OwnWithoutMembers,
    member_order: MemberOrder::Newest,
    member_patch_hides_new_profile: true,
    artifact_patch_answers_null: true,
    download_length: false,
    enhance_derives: false,
    policy_takes_all: false,
    autocomplete_match: AutocompleteMatch::FullText,
    broken_autocomplete_fails: true,
    enrichment_errors_listed: false,
    unstorable_dietary_groups: &["diabetic_friendly"],
    narrow_whole_hits_fail: true,
};

impl Dialect {
    /// Whether `body` (a household, member or profile body) carries a dietary group this wire
    /// cannot store: in its own `dietary_groups`, its `profile`'s, or a nested member's profile's.
    pub fn cannot_store(&self, body: &Map<String, Value>) -> bool {
        let unstorable = |groups: Option<&Value>| {
            groups.and_then(Value::as_array).is_some_and(|groups| {
                groups.iter().any(|group| {
                    group
                        .as_str()
                        .is_some_and(|group| self.unstorable_dietary_groups.contains(&group))
                })
            })
        };
        let members = body.get("members").and_then(Value::as_array);
        unstorable(body.get("dietary_groups"))
            || unstorable(body.get("profile").and_then(|p| p.get("dietary_groups")))
            || members.into_iter().flatten().any(|member| {
                unstorable(member.get("profile").and_then(|p| p.get("dietary_groups")))
            })
    }

    /// Whether this wire serves a route the contract describes as `offered`.
    pub fn serves(&self, offered: Offered) -> bool {
        match offered {
            Offered::Production => true,
            Offered::InterfaceOnly => self.interface_routes,
            Offered::Absent => false,
        }
    }

    /// This wire's template of `said`.
    pub fn template(&self, said: Said) -> &'static str {
        let words = said.words();
        match self.words {
            Column::Reference => words.reference,
            Column::Production => words.production,
        }
    }

    /// `said` as this wire words it, about `about`.
    pub fn says(&self, said: Said, about: About<'_>) -> String {
        fill(self.template(said), &about)
    }

    /// The sign-in answer carrying `token`, which lives `ttl` seconds.
    pub fn sign_in_answer(&self, token: String, ttl: u64) -> Value {
        match self.sign_in {
            SignInAnswer::Larder => {
                json!({ "token": token, "token_type": "Bearer", "expires_in": ttl })
            }
            SignInAnswer::Keycloak => json!({
                "access_token": token,
                "expires_in": ttl,
                "refresh_expires_in": ttl * 2,
                "refresh_token": random_text(),
                "token_type": "Bearer",
                "not-before-policy": 0,
                "session_state": uuid::Uuid::new_v4().to_string(),
                "scope": "profile email",
            }),
        }
    }

    /// Puts `roles` where this wire's tokens carry them, in `claims` whose `realm_access` holds
    /// them all.
    pub fn place_roles(&self, claims: &mut Value, roles: &[String]) {
        if self.token_roles == TokenRoles::Realm {
            return;
        }
        let (client, realm): (Vec<&String>, Vec<&String>) = roles
            .iter()
            .partition(|r| r.as_str() == larder_contract::roles::EXPERT);
        let client: Vec<&str> = client.iter().map(|_| "Expert").collect();
        claims["realm_access"] = json!({ "roles": realm });
        claims["resource_access"] = json!({ CONSOLE_CLIENT: { "roles": client } });
    }

    /// `document` (a household, member or profile, or a list of them) with its stamps, nested
    /// ones too, as this wire reads them back from its database.
    pub fn read_back(&self, mut document: Value) -> Value {
        if self.stamps == Stamps::NaiveAsReadBack {
            naive_stamps(&mut document);
        }
        document
    }

    /// A household as this wire answers it outside `households/me`; `after_patch` when a PATCH
    /// has just changed it.
    pub fn household_outside_me(&self, mut household: Value, after_patch: bool) -> Value {
        match self.household {
            HouseholdShape::WithMembers => household,
            HouseholdShape::MembersOnlyOnMe => {
                household["members"] = json!([]);
                if after_patch {
                    household["member_count"] = json!(0);
                }
                self.read_back(household)
            }
        }
    }

    /// A household of `GET households` as this wire lists it.
    pub fn listed_household(&self, mut household: Value) -> Value {
        if self.households_list == HouseholdsList::OwnWithoutMembers {
            if let Some(map) = household.as_object_mut() {
                map.remove("members");
            }
            household["member_count"] = json!(0);
        }
        self.read_back(household)
    }
}

impl HouseholdsList {
    /// Whether only the caller's own household is listed.
    pub fn own_only(self) -> bool {
        self == HouseholdsList::OwnWithoutMembers
    }

    /// Whether listed households carry their members.
    pub fn with_members(self) -> bool {
        self == HouseholdsList::Every
    }

    /// Whether the listing is searched, filtered and ordered as its query asks.
    pub fn searches(self) -> bool {
        self == HouseholdsList::Every
    }
}

impl Ping {
    /// What `system/ping` answers, `who_asks` being the caller's identity.
    pub fn answer(self, who_asks: impl FnOnce() -> Value) -> Value {
        match self {
            Ping::WhoAsks => who_asks(),
            Ping::Pong => json!("pong"),
        }
    }
}

fn random_text() -> String {
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    B64.encode(bytes)
}

/// The stamps every household, member and profile document carries.
const STAMPS: [&str; 3] = ["created_at", "updated_at", "joined_at"];

fn naive_stamps(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(stamp) if STAMPS.contains(&key.as_str()) => {
                        if let Some(naive) = naive_stamp(stamp) {
                            *stamp = naive;
                        }
                    }
                    _ => naive_stamps(inner),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(naive_stamps),
        _ => {}
    }
}

/// `2026-11-26T17:42:43.282Z` as a zone-less UTC stamp with microseconds; `None` when it is not
/// an RFC 3339 stamp.
fn naive_stamp(stamp: &str) -> Option<String> {
    let parsed = chrono::DateTime::parse_from_rfc3339(stamp).ok()?;
    Some(
        parsed
            .with_timezone(&chrono::Utc)
            .naive_utc()
            .format("%Y-%m-%dT%H:%M:%S%.6f")
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wire_serves_what_the_contract_offers_it() {
        for offered in [Offered::Production, Offered::InterfaceOnly, Offered::Absent] {
            assert_eq!(REFERENCE.serves(offered), offered.by_reference());
            assert_eq!(PRODUCTION.serves(offered), offered.by_production());
        }
    }

    #[test]
    fn production_reads_stamps_back_naive_and_nested() {
        let document = json!({
            "created_at": "2026-11-26T17:42:43.282Z",
            "members": [{ "joined_at": "2026-11-26T17:42:43Z", "name": "2026-11-26T17:42:43Z" }],
        });
        let read = PRODUCTION.read_back(document.clone());
        assert_eq!(read["created_at"], "2026-11-26T17:42:43.282000");
        assert_eq!(
            read["members"][0]["joined_at"],
            "2026-11-26T17:42:43.000000"
        );
        assert_eq!(read["members"][0]["name"], "2026-11-26T17:42:43Z");
        assert_eq!(REFERENCE.read_back(document.clone()), document);
    }
}
