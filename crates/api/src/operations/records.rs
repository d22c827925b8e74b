//! Generic operations on the seven data collections, driven by their [`Collection`] descriptors.

use larder_contract::Collection;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::machinery::client::Client;
use crate::machinery::config::Api;
use crate::machinery::error::ApiError;
use crate::machinery::request::{Method, Request};
use crate::machinery::transport::Transport;

pub use crate::wire::{Listed, Record};

/// The path segment of an identifier: URN colons stay readable, everything else unsafe is encoded.
pub fn path_segment(identifier: &str) -> String {
    identifier
        .split(':')
        .map(crate::machinery::config::encode_component)
        .collect::<Vec<_>>()
        .join(":")
}

/// The fields an update sends: fields of the collection's update allow-list whose value in
/// `after` differs from `before`, and `null` for a dropped field the service lets an update clear.
/// Nothing outside the allow-list is ever sent (production refuses it with 422), so fields the
/// console does not know, and those no update may change, stay as they are.
pub fn changed_fields(collection: &Collection, before: &Record, after: &Record) -> Record {
    let mut changes = Record::new();
    for (field, value) in after {
        if collection.is_updatable(field) && before.get(field) != Some(value) && !value.is_null() {
            changes.insert(field.clone(), value.clone());
        }
    }
    for field in before.keys() {
        let dropped = after.get(field).is_none_or(Value::is_null) && !before[field].is_null();
        if dropped && collection.clearable.contains(&field.as_str()) {
            changes.insert(field.clone(), Value::Null);
        }
    }
    changes
}

/// Fields an update must carry even when unchanged (an artifact's `file_type`): the required
/// fields of the update schema.
pub fn always_sent(collection: &Collection) -> impl Iterator<Item = &'static str> {
    collection
        .update
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
}

/// The body of an update from `before` to `after`: the changed fields of the allow-list and,
/// when any changed, the fields every update carries ([`always_sent`]); empty when nothing did.
pub fn update_body(collection: &Collection, before: &Record, after: &Record) -> Record {
    let mut changes = changed_fields(collection, before, after);
    if changes.is_empty() {
        return changes;
    }
    for field in always_sent(collection) {
        if let Some(value) = after.get(field).or_else(|| before.get(field)) {
            changes.entry(field.to_string()).or_insert(value.clone());
        }
    }
    changes
}

/// Why an update answered with `null` did not take: the fields sent (those every update carries
/// only when they differ) of which the record read back holds none as sent, as production stores them
/// (normalised by the contract). Production's artifact update validates its body, answers
/// `null` and stores nothing (production.md §2.7, §7 row 23): a console must not say "saved".
pub fn left_unstored(collection: &Collection, sent: &Record, stored: &Record) -> Option<String> {
    let required: Vec<&str> = always_sent(collection).collect();
    let as_stored = |name: &str, value: &Value| {
        let field = collection.update.iter().find(|f| f.name == name)?;
        let mut problems = larder_contract::validate::Problems::new();
        larder_contract::validate::check_value(&field.ty, value, &mut problems)
    };
    let held = |name: &str, value: &Value| {
        let wanted = as_stored(name, value).unwrap_or_else(|| value.clone());
        stored.get(name) == Some(&wanted)
    };
    // A field every update carries (an artifact's `file_type`) is a change only when it differs
    // from what is held: carried unchanged, it says nothing.
    let changed: Vec<&String> = sent
        .iter()
        .filter(|(name, value)| !required.contains(&name.as_str()) || !held(name, value))
        .map(|(name, _)| name)
        .collect();
    let unstored: Vec<&str> = changed
        .iter()
        .filter(|name| !held(name, &sent[name.as_str()]))
        .map(|name| name.as_str())
        .collect();
    (!changed.is_empty() && unstored.len() == changed.len()).then(|| {
        format!(
            "The service answered without storing the change ({}): its {} update stores nothing.",
            unstored.join(", "),
            collection.singular.to_lowercase()
        )
    })
}

/// The fields of `record` that a create of `collection` accepts (anything else is a 422 there).
pub fn creatable(collection: &Collection, record: &Record) -> Record {
    record
        .iter()
        .filter(|(k, v)| collection.is_creatable(k) && !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// `{collection}/by-<parent>/{parent urn}`, the route under which a child collection's records
/// of one parent live (`guidelines/by-guide/urn:guide:g`), with the segment the contract names;
/// its `/search`, `/import` and `/replace` hang below it.
pub(crate) fn by_parent_path(
    collection: &Collection,
    parent_urn: &str,
) -> Result<String, ApiError> {
    match collection.children_path(&path_segment(parent_urn)) {
        Some((path, None)) => Ok(path),
        _ => Err(ApiError::Caller(format!(
            "{} have no route under their parent.",
            collection.plural
        ))),
    }
}

fn record_path(collection: &Collection, identifier: &str) -> String {
    format!("{}/{}", collection.path, path_segment(identifier))
}

impl<T: Transport> Client<T> {
    /// `GET {collection}?limit&offset`.
    pub async fn list(
        &self,
        collection: &Collection,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Listed>, ApiError> {
        let request = Request::new(Api::Data, Method::Get, collection.path)
            .query("limit", limit)
            .query("offset", offset);
        self.call(request).await
    }

    /// The records of `collection` hanging from `parent_urn` (a full URN), a page at a time:
    /// `{collection}/by-<parent>/{urn}` (a guide's guidelines, a textbook's passages), or
    /// `artifacts?parent_urn=` (only interface.md has that one; production answers 405).
    pub async fn list_children(
        &self,
        collection: &Collection,
        parent_urn: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Record>, ApiError> {
        self.children_page(collection, parent_urn, limit, offset)
            .await
    }

    /// The one reading of a page of children behind [`Client::list_children`] and the typed
    /// listings of a guide's guidelines and a textbook's passages, decoded as `R`.
    pub(crate) async fn children_page<R: DeserializeOwned>(
        &self,
        collection: &Collection,
        parent_urn: &str,
        limit: u32,
        offset: u32,
    ) -> Result<R, ApiError> {
        let Some((path, query)) = collection.children_path(&path_segment(parent_urn)) else {
            return Err(ApiError::Caller(format!(
                "{} do not hang from another record.",
                collection.plural
            )));
        };
        let mut request = Request::new(Api::Data, Method::Get, path);
        if let Some((field, _)) = query {
            request = request.query(field, parent_urn);
        }
        self.call(request.query("limit", limit).query("offset", offset))
            .await
    }

    /// `GET {collection}/{identifier}`; a slug, a URN or a UUID.
    pub async fn get_record(
        &self,
        collection: &Collection,
        identifier: &str,
    ) -> Result<Record, ApiError> {
        self.call(Request::new(
            Api::Data,
            Method::Get,
            record_path(collection, identifier),
        ))
        .await
    }

    /// `POST {collection}`; a URN collection's record carries its slug in `urn` (production refuses
    /// `identifier` or `id` in a create with 422, production.md §1.4).
    pub async fn create_record(
        &self,
        collection: &Collection,
        fields: Record,
    ) -> Result<Record, ApiError> {
        self.call(Request::new(
            Api::Data,
            Method::Post(Value::Object(fields)),
            collection.path,
        ))
        .await
    }

    /// `PATCH {collection}/{identifier}` with exactly `changes`; the updated record. Production
    /// answers an artifact update with `null`, so a `null` answer is followed by a read, and is an
    /// error when the record read back holds none of the changes ([`left_unstored`]).
    pub async fn patch_record(
        &self,
        collection: &Collection,
        identifier: &str,
        changes: Record,
    ) -> Result<Record, ApiError> {
        let answer = self
            .write_record(
                collection,
                identifier,
                Method::Patch(Value::Object(changes.clone())),
            )
            .await?;
        if answer.is_null() {
            let stored = self.get_record(collection, identifier).await?;
            if let Some(refusal) = left_unstored(collection, &changes, &stored) {
                return Err(ApiError::Caller(refusal));
            }
            return Ok(stored);
        }
        crate::machinery::client::decode(answer)
    }

    /// Sends only what changed between `before` and `after` (no request when nothing did), plus
    /// the fields of [`always_sent`].
    pub async fn update_record(
        &self,
        collection: &Collection,
        identifier: &str,
        before: &Record,
        after: &Record,
    ) -> Result<Record, ApiError> {
        let changes = update_body(collection, before, after);
        if changes.is_empty() {
            return Ok(before.clone());
        }
        self.patch_record(collection, identifier, changes).await
    }

    /// `PUT {collection}/{identifier}` with the record's mutable fields.
    pub async fn put_record(
        &self,
        collection: &Collection,
        identifier: &str,
        record: &Record,
    ) -> Result<Record, ApiError> {
        let body: Record = record
            .iter()
            .filter(|(k, _)| collection.is_updatable(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let answer = self
            .write_record(collection, identifier, Method::Put(Value::Object(body)))
            .await?;
        crate::machinery::client::decode(answer)
    }

    /// Sends a PATCH or a PUT to one record and answers what came back, undecoded (a PATCH of
    /// an artifact answers `null`, which [`Client::patch_record`] follows with a read).
    async fn write_record(
        &self,
        collection: &Collection,
        identifier: &str,
        method: Method,
    ) -> Result<Value, ApiError> {
        let path = record_path(collection, identifier);
        self.execute(Request::new(Api::Data, method, path)).await
    }

    /// `DELETE {collection}/{identifier}`.
    pub async fn delete_record(
        &self,
        collection: &Collection,
        identifier: &str,
    ) -> Result<Value, ApiError> {
        self.execute(Request::new(
            Api::Data,
            Method::Delete,
            record_path(collection, identifier),
        ))
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use larder_contract::collections::{ARTICLES, ARTIFACTS, GUIDES};
    use serde_json::json;

    fn record(value: Value) -> Record {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn only_changed_fields_of_the_allow_list_are_sent() {
        let before = record(
            json!({"urn": "urn:guide:a", "id": "1", "title": "A", "tags": ["x"], "x_unknown": {"k": 1},
                   "notes": "n", "publication_year": 2001, "verifier_user_id": "v"}),
        );
        let after = record(
            json!({"urn": "urn:guide:b", "id": "2", "title": "B", "tags": ["x"], "x_unknown": {"k": 2},
                   "verifier_user_id": "w"}),
        );
        // `notes` can't be cleared in production (a null is dropped), `publication_year` can;
        // `x_unknown` and `verifier_user_id` are outside the allow-list.
        assert_eq!(
            changed_fields(&GUIDES, &before, &after),
            record(json!({"title": "B", "publication_year": null}))
        );
        let article = record(json!({"type": "JournalArticle", "status": "active"}));
        assert_eq!(
            changed_fields(
                &ARTICLES,
                &article,
                &record(json!({"type": "Review", "status": "archived"}))
            ),
            record(json!({"type": "Review"}))
        );
        assert!(changed_fields(&GUIDES, &before, &before).is_empty());
        assert_eq!(always_sent(&ARTIFACTS).collect::<Vec<_>>(), ["file_type"]);
    }

    #[test]
    fn listings_in_both_shapes() {
        let entries: Vec<Listed> = serde_json::from_value(
            json!(["urn:article:a", {"urn": "urn:article:b"}, {"id": "u-1"}, {"title": "no id"}]),
        )
        .unwrap();
        let ids: Vec<_> = entries.iter().map(Listed::identifier).collect();
        assert_eq!(
            ids,
            [
                Some("urn:article:a"),
                Some("urn:article:b"),
                Some("u-1"),
                None
            ]
        );
    }

    #[test]
    fn by_parent_routes_come_from_the_contract() {
        use larder_contract::collections::{GUIDELINES, TEXTBOOK_PASSAGES};
        assert_eq!(
            by_parent_path(&GUIDELINES, "urn:guide:g").unwrap(),
            "guidelines/by-guide/urn:guide:g"
        );
        assert_eq!(
            by_parent_path(&TEXTBOOK_PASSAGES, "urn:textbook:a b").unwrap(),
            "textbook-passages/by-textbook/urn:textbook:a%20b"
        );
        assert!(by_parent_path(&ARTIFACTS, "urn:guide:g").is_err());
        assert!(by_parent_path(&ARTICLES, "urn:guide:g").is_err());
    }

    #[test]
    fn path_segments_keep_urn_colons() {
        assert_eq!(path_segment("urn:article:vit-d"), "urn:article:vit-d");
        assert_eq!(path_segment("a/b?c"), "a%2Fb%3Fc");
    }
}
