//! The client's typed records against the contract's field descriptions, for JSON type and
//! optionality (`contract_fields.rs` holds them to the same names). For every collection of
//! `larder_contract::collections::COLLECTIONS`, records are generated from the contract's
//! [`Type`]s, and the collection's typed record must:
//!
//! - decode a record with every required field present and every optional one absent, `null`,
//!   or present; and decode each field in every JSON form its type takes (a `Float` as an
//!   integer and as a fraction, a `Year` as a number and as a string, `Any` as everything);
//! - write back what it read: every value sent comes back equal (numbers compared as numbers),
//!   and where nothing was sent nothing but an empty value (`null`, `""`, `[]`, `{}`) comes back;
//! - refuse every JSON form the contract's type does not take (a string where the contract says
//!   a list, an integer, a boolean or an object; a fraction for an integer; an object where it
//!   says a string), for the field and for a list's items: a field typed looser than the
//!   contract (`serde_json::Value` for an enumeration) fails here, as does one typed differently.
//!
//! So a change of a field's type or optionality on either side fails here until the other side
//! follows, or the difference is written into [`TOLERATED`] with its reason. (serde reads a
//! struct from a JSON array of its fields too; the array probe holds an object first, which no
//! record's first field takes, so that reading is not what this checks.)
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use larder_api::types::{Artifact, FcTable, Resource};
use larder_api::{Article, Guide, Guideline, Passage, Textbook};
use larder_contract::collections::{COLLECTIONS, TREE_NODE};
use larder_contract::{Collection, Field, Type};
use serde_json::{json, Map, Value};

/// The forms a JSON value takes, as far as a field's type tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Text,
    Integer,
    Fraction,
    Boolean,
    List,
    Object,
}

const EVERY_KIND: [Kind; 6] = [
    Kind::Text,
    Kind::Integer,
    Kind::Fraction,
    Kind::Boolean,
    Kind::List,
    Kind::Object,
];

/// Forms the client's type takes beyond the contract's, on purpose: (collection, field, the
/// form, why). `[]` field items are written `field[]`.
const TOLERATED: &[(&str, &str, Kind, &str)] = &[];

/// The JSON forms a value of `ty` takes.
fn kinds(ty: &Type) -> Vec<Kind> {
    match ty {
        Type::Str { .. }
        | Type::Slug
        | Type::Urn(_)
        | Type::Uuid
        | Type::Lang
        | Type::Country
        | Type::Url
        | Type::Date
        | Type::DateTime
        | Type::Enum(_)
        | Type::EnumFolded(_)
        | Type::FileType => vec![Kind::Text],
        Type::Int { .. } => vec![Kind::Integer],
        Type::Float { .. } => vec![Kind::Integer, Kind::Fraction],
        Type::Bool => vec![Kind::Boolean],
        // A year, a digit string or an ISO date; production stores the article's as a date.
        Type::YearDate | Type::Year => vec![Kind::Integer, Kind::Text],
        Type::Object | Type::Shape(_) | Type::Loose(_) | Type::Tree => vec![Kind::Object],
        Type::List { .. } => vec![Kind::List],
        Type::Any => EVERY_KIND.to_vec(),
    }
}

/// A value of `ty` in the form `kind`, valid for the contract (within its bounds).
fn sample(ty: &Type, kind: Kind) -> Value {
    match (ty, kind) {
        (Type::Str { min, max, .. }, _) => {
            let length = (*min).max(6).min(max.unwrap_or(u32::MAX)) as usize;
            json!("sample text"
                .chars()
                .cycle()
                .take(length)
                .collect::<String>())
        }
        (Type::Slug, _) => json!("sample-slug"),
        (Type::Urn(prefix), _) => json!(format!("{}sample", prefix.unwrap_or("urn:article:"))),
        (Type::Uuid, _) => json!("0b6f0c2e-5d7a-4c2b-9e51-3f1a2b3c4d5e"),
        (Type::Lang, _) => json!("el"),
        (Type::Country, _) => json!("GR"),
        (Type::Url, _) => json!("https://example.org/sample"),
        (Type::Date, _) => json!("2024-01-31"),
        (Type::DateTime, _) => json!("2024-01-31T12:00:00Z"),
        (Type::Enum(values) | Type::EnumFolded(values), _) => json!(values[values.len() - 1]),
        (Type::FileType, _) => json!("pdf"),
        (Type::Int { min, max }, _) => json!(min.map_or(3, |m| m + 1).min(max.unwrap_or(i64::MAX))),
        (Type::Float { max, .. }, Kind::Integer) => json!(max.map_or(7.0, |m| m.min(7.0)) as i64),
        (Type::Float { .. }, _) => json!(0.5),
        (Type::Bool, _) => json!(true),
        (Type::YearDate, Kind::Text) => json!("2019-05-01"),
        (Type::Year, Kind::Text) => json!("2019"),
        (Type::YearDate | Type::Year, _) => json!(2019),
        (Type::Object, _) => json!({ "note": "kept", "count": 2 }),
        (Type::Shape(fields) | Type::Loose(fields), _) => every_field(fields),
        (Type::Tree, _) => json!({ "roots": [every_field(TREE_NODE)] }),
        (Type::List { item, min, .. }, _) => {
            let item = sample(item, kinds(item)[0]);
            Value::Array(vec![item; (*min).max(1) as usize])
        }
        (Type::Any, kind) => probe(kind),
    }
}

/// An object with every one of `fields`, each in its type's first form.
fn every_field(fields: &[Field]) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|f| (f.name.to_string(), sample(&f.ty, kinds(&f.ty)[0])))
            .collect(),
    )
}

/// A value of the form `kind` that is no valid value of a type not taking that form.
fn probe(kind: Kind) -> Value {
    match kind {
        Kind::Text => json!("probe"),
        Kind::Integer => json!(7),
        Kind::Fraction => json!(0.5),
        Kind::Boolean => json!(true),
        Kind::List => json!([{ "probe": 1 }]),
        Kind::Object => json!({ "probe": 1 }),
    }
}

/// How a generated record carries its optional fields.
#[derive(Clone, Copy, Debug)]
enum Optional {
    Absent,
    Null,
    Present,
}

/// A record of `fields`: every required field in its first form, the optional ones as asked.
fn record(fields: &[&Field], optional: Optional) -> Map<String, Value> {
    fields
        .iter()
        .filter_map(|f| {
            let value = match (f.required, optional) {
                (false, Optional::Absent) => return None,
                (false, Optional::Null) => Value::Null,
                _ => sample(&f.ty, kinds(&f.ty)[0]),
            };
            Some((f.name.to_string(), value))
        })
        .collect()
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// Whether `written` gives back `sent`: equal, numbers as numbers, and nothing added but empty
/// values.
fn gives_back(written: Option<&Value>, sent: &Value) -> bool {
    match (written, sent) {
        (Some(Value::Number(a)), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Some(Value::Object(out)), Value::Object(sent)) => {
            sent.iter().all(|(k, v)| gives_back(out.get(k), v))
                && out.iter().all(|(k, v)| sent.contains_key(k) || is_empty(v))
        }
        (Some(Value::Array(out)), Value::Array(sent)) => {
            out.len() == sent.len() && out.iter().zip(sent).all(|(o, s)| gives_back(Some(o), s))
        }
        (Some(out), sent) => out == sent,
        (None, _) => false,
    }
}

/// Reads `record` as `T` and writes it back.
fn through<T: Resource>(record: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let typed: T =
        serde_json::from_value(Value::Object(record.clone())).map_err(|e| e.to_string())?;
    match serde_json::to_value(&typed) {
        Ok(Value::Object(written)) => Ok(written),
        other => Err(format!("written as {other:?}")),
    }
}

/// Every way `T` differs from its collection's fields in type or optionality, and every
/// [`TOLERATED`] entry of the collection that no longer is a difference.
fn problems<T: Resource>() -> Vec<String> {
    let collection: Collection = T::COLLECTION;
    let fields = collection.fields();
    let mut problems = Vec::new();
    let mut tolerated_seen = BTreeSet::new();

    // Optional fields absent, null, present: read, and written back as sent.
    for optional in [Optional::Absent, Optional::Null, Optional::Present] {
        let sent = record(&fields, optional);
        match through::<T>(&sent) {
            Err(error) => problems.push(format!("optional fields {optional:?}: refused: {error}")),
            Ok(written) => {
                for field in &fields {
                    let back = written.get(field.name);
                    let fine = match sent.get(field.name).filter(|v| !v.is_null()) {
                        Some(value) => gives_back(back, value),
                        None => back.is_none_or(is_empty),
                    };
                    if !fine {
                        problems.push(format!(
                            "{}: sent {:?} ({optional:?}), written back as {back:?}",
                            field.name,
                            sent.get(field.name)
                        ));
                    }
                }
            }
        }
    }

    // Each field alone beside the required ones, so a drift of one field does not hide another.
    let base = record(&fields, Optional::Absent);
    for field in &fields {
        // An optional field may be left out or sent as `null`; nothing but an empty value
        // comes back for it.
        if !field.required {
            for (how, left) in [("left out", None), ("null", Some(Value::Null))] {
                let mut sent = base.clone();
                sent.remove(field.name);
                sent.extend(left.map(|null| (field.name.to_string(), null)));
                match through::<T>(&sent) {
                    Ok(written) if written.get(field.name).is_none_or(is_empty) => {}
                    Ok(written) => problems.push(format!(
                        "{}: {how}, written back as {:?}",
                        field.name,
                        written.get(field.name)
                    )),
                    Err(error) => problems.push(format!(
                        "{}: optional, but refused {how}: {error}",
                        field.name
                    )),
                }
            }
        }
        let allowed = kinds(&field.ty);
        // Every form the contract's type takes is read and given back.
        for kind in &allowed {
            let value = sample(&field.ty, *kind);
            let mut sent = base.clone();
            sent.insert(field.name.to_string(), value.clone());
            match through::<T>(&sent) {
                Ok(written) if gives_back(written.get(field.name), &value) => {}
                Ok(written) => problems.push(format!(
                    "{}: {kind:?} {value} written back as {:?}",
                    field.name,
                    written.get(field.name)
                )),
                Err(error) => problems.push(format!(
                    "{}: the contract's {kind:?} {value} is refused: {error}",
                    field.name
                )),
            }
        }
        // Every other form is refused: of the field, and of a list's items.
        let mut probes: Vec<(String, Kind, Value, &[Kind])> = EVERY_KIND
            .iter()
            .filter(|kind| !allowed.contains(kind))
            .map(|kind| (field.name.to_string(), *kind, probe(*kind), &allowed[..]))
            .collect();
        let item_kinds = match field.ty {
            Type::List { item, .. } => kinds(item),
            _ => Vec::new(),
        };
        if !item_kinds.is_empty() {
            probes.extend(
                EVERY_KIND
                    .iter()
                    .filter(|kind| !item_kinds.contains(kind))
                    .map(|kind| {
                        let place = format!("{}[]", field.name);
                        (place, *kind, json!([probe(*kind)]), &item_kinds[..])
                    }),
            );
        }
        for (place, kind, value, takes) in probes {
            let mut sent = base.clone();
            sent.insert(field.name.to_string(), value.clone());
            let accepted = through::<T>(&sent).is_ok();
            let tolerated = TOLERATED
                .iter()
                .any(|(c, f, k, _)| *c == collection.path && *f == place && *k == kind);
            if tolerated {
                tolerated_seen.insert((place.clone(), kind));
            }
            if accepted && !tolerated {
                problems.push(format!(
                    "{place}: takes {kind:?} {value}; the contract's type takes only {takes:?}"
                ));
            }
            if !accepted && tolerated {
                problems.push(format!(
                    "{place}: TOLERATED says it takes {kind:?}, but it refuses it now"
                ));
            }
        }
    }
    for (c, place, kind, _) in TOLERATED {
        if *c == collection.path && !tolerated_seen.contains(&(place.to_string(), *kind)) {
            problems.push(format!(
                "{place}: in TOLERATED, but no field of the contract"
            ));
        }
    }
    problems
        .into_iter()
        .map(|problem| {
            format!(
                "{} ({}): {problem}",
                collection.path,
                std::any::type_name::<T>()
            )
        })
        .collect()
}

/// A collection's path, and the check of its typed record.
type TypedRecord = (&'static str, fn() -> Vec<String>);

/// The typed record of each collection, and its check.
fn typed_records() -> Vec<TypedRecord> {
    fn entry<T: Resource>() -> TypedRecord {
        (T::COLLECTION.path, problems::<T>)
    }
    vec![
        entry::<Article>(),
        entry::<Guide>(),
        entry::<Guideline>(),
        entry::<Textbook>(),
        entry::<Passage>(),
        entry::<FcTable>(),
        entry::<Artifact>(),
    ]
}

#[test]
fn every_typed_record_takes_its_collections_types_and_optionality() {
    let typed = typed_records();
    let mut problems = Vec::new();
    for collection in COLLECTIONS.iter() {
        let checks: Vec<_> = typed
            .iter()
            .filter(|(path, _)| *path == collection.path)
            .collect();
        match checks.as_slice() {
            [(_, check)] => problems.extend(check()),
            _ => problems.push(format!(
                "{}: {} typed records checked, not one",
                collection.path,
                checks.len()
            )),
        }
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The check finds each kind of drift: a contract integer typed as text, an object and an
/// enumeration typed as any value, a list of enumerations typed as a list of any values, a
/// field that refuses `null`, and a number that is not given back as sent.
#[test]
fn a_drift_in_type_or_optionality_is_found() {
    use serde::{Deserialize, Serialize};

    const FIELDS: &[Field] = &[
        Field::req("urn", Type::Slug),
        Field::opt(
            "count",
            Type::Int {
                min: None,
                max: None,
            },
        ),
        Field::opt("shape", Type::Object),
        Field::opt("choice", Type::Enum(&["a", "b"])),
        Field::opt(
            "choices",
            larder_contract::types::list(&Type::Enum(&["a", "b"]), 0, None),
        ),
        Field::opt("flag", Type::Bool),
        Field::opt(
            "share",
            Type::Float {
                min: None,
                max: None,
            },
        ),
    ];
    const DRIFTED: Collection = Collection {
        path: "drifted",
        create: FIELDS,
        update: &[],
        service_set: &[],
        derived: &[],
        ..larder_contract::collections::ARTICLES
    };

    #[derive(Default, Serialize, Deserialize)]
    #[serde(default)]
    struct Drifted {
        urn: Option<String>,
        count: Option<String>,
        shape: Option<Value>,
        choice: Option<Value>,
        choices: Vec<Value>,
        flag: bool,
        share: Option<i64>,
        #[serde(flatten)]
        extra: Map<String, Value>,
    }
    impl Resource for Drifted {
        const COLLECTION: Collection = DRIFTED;
        fn identifier(&self) -> Option<&str> {
            self.urn.as_deref()
        }
    }

    let problems = problems::<Drifted>();
    for (field, why) in [
        ("count", "an integer read as text"),
        ("shape", "an object read as any value"),
        ("choice", "an enumeration read as any value"),
        ("choices[]", "enumerations read as any values"),
        ("flag", "a boolean that refuses null"),
        ("share", "a fraction refused"),
    ] {
        assert!(
            problems.iter().any(|p| p.contains(&format!("): {field}:"))),
            "{why} ({field}) went unnoticed: {problems:#?}"
        );
    }
}
