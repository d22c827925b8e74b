//! The client's typed records against the contract, field by field: for every collection, the
//! fields the typed record knows are the fields `larder_contract::collections` declares (create,
//! update, service-set and derived), and the household request types carry exactly the fields of
//! their schemas. Adding or dropping a field on either side fails here until the other side
//! follows, or the difference is written into [`DELIBERATE`] with its reason.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fmt::Debug;

use larder_api::types::{
    Artifact, FcTable, HouseholdChanges, MemberChanges, NewHousehold, NewMember, ProfileChanges,
    ProfileInput, Resource,
};
use larder_api::{Article, Guide, Guideline, Organization, Passage, RCollection, Textbook};
use larder_contract::households;
use larder_contract::Field;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// Rust field names that serde renames on the wire (Rust keywords, or clearer names in Rust).
const RENAMED: &[(&str, &str)] = &[("record_type", "type"), ("abstract_text", "abstract")];

/// The catch-all every type has for fields it does not know: not a field of the record.
const CATCH_ALL: &str = "extra";

/// Which side has a field the other lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Only {
    Client,
    Contract,
}

/// Differences kept on purpose: (collection or type, wire field, the side that has it, why).
const DELIBERATE: &[(&str, &str, Only, &str)] = &[
    (
        "guides",
        "type",
        Only::Client,
        "interface.md gives every record a `type`; production's guide excludes it on output, so \
         the client reads it where a service sends it and the contract does not list it",
    ),
    (
        "textbooks",
        "type",
        Only::Client,
        "as for guides: interface.md's `type`, excluded on output by production",
    ),
    (
        "fctables",
        "abstract",
        Only::Client,
        "interface.md's FCTable has it; production has no such field (production.md §7, \
         I 129-134): the client still reads it from a service that follows interface.md",
    ),
    ("fctables", "authors", Only::Client, "as for `abstract`"),
    ("fctables", "category", Only::Client, "as for `abstract`"),
    ("fctables", "content", Only::Client, "as for `abstract`"),
    ("fctables", "external_id", Only::Client, "as for `abstract`"),
    (
        "fctables",
        "organization_urn",
        Only::Client,
        "interface.md's FCTable lists it (part 2.8); production's fctable schema has none",
    ),
    (
        "NewMember",
        "household_id",
        Only::Contract,
        "`POST members` takes it as an argument of `Client::create_member`, which adds it to the \
         body; a member inside `POST households` has none",
    ),
    (
        "NewMember",
        "profile",
        Only::Contract,
        "`POST members` takes the profile as an argument of `Client::create_member` (a \
         `ProfileInput`), which adds it to the body",
    ),
    (
        "MemberChanges",
        "profile",
        Only::Contract,
        "the client changes a profile with its own call (`PATCH members/{id}/profile`, \
         `Client::update_profile`), not inside a member's changes",
    ),
];

/// The Rust field names of `T`, read from the derived `Debug` of a default value (the one
/// listing that holds every field, whatever serde skips when serialising).
fn rust_fields<T: Default + Debug>() -> Vec<String> {
    format!("{:#?}", T::default())
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("    ")?;
            if name.starts_with(' ') {
                return None;
            }
            Some(name.split_once(':')?.0.trim_start_matches("r#").to_string())
        })
        .collect()
}

/// Whether serde reads `name` into a field of `T` rather than into its catch-all: an unknown
/// key comes back exactly as sent, a known one is refused, defaulted or skipped.
fn knows<T: Serialize + DeserializeOwned>(name: &str) -> bool {
    match serde_json::from_value::<T>(json!({ name: null })) {
        Err(_) => true,
        Ok(value) => serde_json::to_value(value).unwrap().get(name) != Some(&Value::Null),
    }
}

/// The wire names of `T`'s fields, each checked to be one serde reads.
fn client_fields<T: Default + Debug + Serialize + DeserializeOwned>() -> BTreeSet<String> {
    let mut fields = BTreeSet::new();
    for rust in rust_fields::<T>() {
        if rust == CATCH_ALL {
            continue;
        }
        let wire = RENAMED
            .iter()
            .find(|(from, _)| *from == rust)
            .map_or(rust.as_str(), |(_, to)| to);
        assert!(
            knows::<T>(wire),
            "{}.{rust} is not read from `{wire}`: is RENAMED right?",
            std::any::type_name::<T>()
        );
        fields.insert(wire.to_string());
    }
    assert!(
        !fields.is_empty(),
        "no fields read from {}",
        std::any::type_name::<T>()
    );
    fields
}

/// Fails with every difference that [`DELIBERATE`] does not list, and every listed one that is
/// no longer a difference.
fn compare(name: &str, client: BTreeSet<String>, contract: BTreeSet<String>) {
    let found: BTreeSet<(String, Only)> = client
        .difference(&contract)
        .map(|f| (f.clone(), Only::Client))
        .chain(
            contract
                .difference(&client)
                .map(|f| (f.clone(), Only::Contract)),
        )
        .collect();
    let expected: BTreeSet<(String, Only)> = DELIBERATE
        .iter()
        .filter(|(of, ..)| *of == name)
        .map(|(_, field, side, _)| (field.to_string(), *side))
        .collect();
    let unexplained: Vec<_> = found.difference(&expected).collect();
    let stale: Vec<_> = expected.difference(&found).collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{name}: differences nobody explained {unexplained:?}; explained ones that are gone {stale:?}"
    );
}

fn names(fields: &[&[Field]]) -> BTreeSet<String> {
    fields
        .iter()
        .flat_map(|list| list.iter().map(|f| f.name.to_string()))
        .collect()
}

fn record_matches_its_collection<T: Resource + Default + Debug>() {
    let collection = T::COLLECTION;
    let contract = collection
        .fields()
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    compare(collection.path, client_fields::<T>(), contract);
}

#[test]
fn every_typed_record_has_its_collections_fields() {
    record_matches_its_collection::<Article>();
    record_matches_its_collection::<Guide>();
    record_matches_its_collection::<Guideline>();
    record_matches_its_collection::<Textbook>();
    record_matches_its_collection::<Passage>();
    record_matches_its_collection::<FcTable>();
    record_matches_its_collection::<Artifact>();
    record_matches_its_collection::<Organization>();
    record_matches_its_collection::<RCollection>();
}

#[test]
fn household_requests_carry_their_schemas_fields() {
    use households::*;
    compare(
        "NewHousehold",
        client_fields::<NewHousehold>(),
        names(&[HOUSEHOLD_CREATE]),
    );
    compare(
        "NewMember",
        client_fields::<NewMember>(),
        names(&[MEMBER_CREATE]),
    );
    compare(
        "HouseholdChanges",
        client_fields::<HouseholdChanges>(),
        names(&[HOUSEHOLD_UPDATE]),
    );
    compare(
        "MemberChanges",
        client_fields::<MemberChanges>(),
        names(&[MEMBER_UPDATE]),
    );
    compare(
        "ProfileInput",
        client_fields::<ProfileInput>(),
        names(&[PROFILE_CREATE]),
    );
    compare(
        "ProfileChanges",
        client_fields::<ProfileChanges>(),
        names(&[PROFILE_UPDATE]),
    );
}

#[test]
fn a_field_on_one_side_only_is_found() {
    #[derive(Debug, Default, Serialize, serde::Deserialize)]
    struct Sample {
        title: String,
        #[serde(rename = "type")]
        record_type: String,
        #[serde(flatten)]
        extra: serde_json::Map<String, Value>,
    }
    assert_eq!(
        client_fields::<Sample>(),
        ["title", "type"].map(String::from).into()
    );
    let outcome = std::panic::catch_unwind(|| {
        compare(
            "sample",
            client_fields::<Sample>(),
            ["title", "type", "url"].map(String::from).into(),
        )
    });
    assert!(
        outcome.is_err(),
        "a contract field the client lacks went unnoticed"
    );
    let outcome = std::panic::catch_unwind(|| {
        compare(
            "sample",
            client_fields::<Sample>(),
            ["title"].map(String::from).into(),
        )
    });
    assert!(
        outcome.is_err(),
        "a client field the contract lacks went unnoticed"
    );
}
