//! Column choices and saved views of the list pages: pure logic (which fields can be columns,
//! moving them, a view's link, and the JSON a view file holds), tested natively. The pages keep
//! both in localStorage as preferences: names of fields and a list query, never the session.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{schema, Schema};
use crate::i18n::tf;

/// The URL parameter naming the columns of a list, comma-separated (`cols=venue,status`).
pub const COLUMNS_PARAM: &str = "cols";
/// The list parameters a view keeps (the page's offset is not one: a view starts at its top).
pub const VIEW_PARAMS: [&str; 4] = ["q", "fq", "sort", "limit"];
/// The `format` of a views file, so a file of something else is refused by name.
pub const VIEWS_FORMAT: &str = "larder-views";
/// The longest view name.
pub const MAX_NAME: usize = 100;
/// The most views a file may hold.
pub const MAX_VIEWS: usize = 500;
/// Bytes of a views file (or pasted text): 500 views of a few hundred bytes each fit twice over,
/// and every view is kept in this browser's storage (a few MiB per site).
pub const MAX_FILE_BYTES: usize = 1_000_000;
/// Values of a views file: 500 views of some thirty values each fit several times over.
const MAX_JSON_VALUES: usize = 100_000;

/// A named list state of one collection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedView {
    /// What the user called it.
    pub name: String,
    /// The collection's path (`articles`).
    pub collection: String,
    /// The list's query without `?`: `q`, `fq`, `sort` and `limit` only.
    pub query: String,
    /// The columns after the title, in order.
    pub columns: Vec<String>,
}

/// A views file: `{"format": "larder-views", "version": 1, "views": [...]}`.
#[derive(Serialize)]
struct ViewsFile<'a> {
    format: &'static str,
    version: u32,
    views: &'a [SavedView],
}

/// Fields that can be columns: every field of the schema but the title, which is always first.
pub fn choosable(schema: &Schema) -> Vec<&'static str> {
    schema
        .fields()
        .into_iter()
        .map(|f| f.name)
        .filter(|name| *name != "title")
        .collect()
}

/// The columns named in `names` that the schema has, once each, in the given order.
pub fn known_columns<S: AsRef<str>>(schema: &Schema, names: &[S]) -> Vec<&'static str> {
    let choosable = choosable(schema);
    let mut out: Vec<&'static str> = Vec::new();
    for name in names {
        if let Some(found) = choosable.iter().find(|c| **c == name.as_ref()) {
            if !out.contains(found) {
                out.push(found);
            }
        }
    }
    out
}

/// The columns of a `cols` parameter (empty parts and unknown names dropped).
pub fn columns_from_param(schema: &Schema, param: &str) -> Vec<&'static str> {
    let names: Vec<&str> = param.split(',').map(str::trim).collect();
    known_columns(schema, &names)
}

/// The `cols` parameter of `columns`.
pub fn columns_param<S: AsRef<str>>(columns: &[S]) -> String {
    columns
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(",")
}

/// `columns` with `name` shown (appended) or hidden.
pub fn toggled(columns: &[&'static str], name: &'static str, shown: bool) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = columns.iter().copied().filter(|c| *c != name).collect();
    if shown {
        out.push(name);
    }
    out
}

/// `columns` with `name` moved one place up (`by` = -1) or down (`by` = 1); unchanged at an end.
pub fn moved(columns: &[&'static str], name: &str, by: isize) -> Vec<&'static str> {
    let mut out = columns.to_vec();
    if let Some(at) = out.iter().position(|c| *c == name) {
        let to = at as isize + by;
        if (0..out.len() as isize).contains(&to) {
            out.swap(at, to as usize);
        }
    }
    out
}

/// The order the Columns dialog lists fields in: the shown columns first (in their order),
/// then the others in the contract's order.
pub fn dialog_order(schema: &Schema, shown: &[&'static str]) -> Vec<&'static str> {
    let mut out = shown.to_vec();
    out.extend(choosable(schema).into_iter().filter(|c| !shown.contains(c)));
    out
}

/// Splits a query string (with or without `?`) into decoded pairs.
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// Percent-decoding of a query component (`+` is a space, as forms write it). Bytes that do not
/// decode are kept as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                // Bytes, not `&text[..]`: a slice could end inside a character.
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push((high * 16 + low) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The part of a list's query a view keeps: `q`, `fq`, `sort` and `limit`, in that order.
pub fn view_query(pairs: &[(String, String)]) -> String {
    let enc = larder_api::config::encode_component;
    VIEW_PARAMS
        .iter()
        .filter_map(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(k, v)| format!("{k}={}", enc(v)))
        })
        .collect::<Vec<_>>()
        .join("&")
}

impl SavedView {
    /// The list URL of the view (relative to the console): its query plus its columns.
    pub fn href(&self) -> String {
        let mut query = self.query.clone();
        if !query.is_empty() {
            query.push('&');
        }
        query.push_str(&format!(
            "{COLUMNS_PARAM}={}",
            larder_api::config::encode_component(&columns_param(&self.columns))
        ));
        format!("/records/{}?{query}", self.collection)
    }
}

/// `views` with `view` added, replacing one of the same name and collection.
pub fn with_view(views: &[SavedView], view: SavedView) -> Vec<SavedView> {
    let mut out: Vec<SavedView> = views
        .iter()
        .filter(|v| !(v.collection == view.collection && v.name == view.name))
        .cloned()
        .collect();
    out.push(view);
    out
}

/// The views file of `views`, pretty-printed.
pub fn export_views(views: &[SavedView]) -> String {
    serde_json::to_string_pretty(&ViewsFile {
        format: VIEWS_FORMAT,
        version: 1,
        views,
    })
    .unwrap_or_default()
}

/// Reads a views file (or a bare list of views): every view checked, each problem named by the
/// view's position (1-based) and, when it has one, its name. All or nothing.
pub fn import_views(text: &str) -> Result<Vec<SavedView>, Vec<String>> {
    if let Some(refusal) = super::import_size::text_refusal(text, MAX_FILE_BYTES) {
        return Err(vec![refusal]);
    }
    let value =
        super::bounded_json::parse(text.trim(), MAX_JSON_VALUES).map_err(|e| vec![e.message()])?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(mut file) => {
            if file.get("format").and_then(Value::as_str) != Some(VIEWS_FORMAT) {
                return Err(vec![tf(
                    "This is not a views file: \"format\" must be \"{format}\".",
                    &[("format", VIEWS_FORMAT)],
                )]);
            }
            match file.remove("views") {
                Some(Value::Array(items)) => items,
                _ => return Err(vec![tf("\"views\" must be a list.", &[])]),
            }
        }
        _ => return Err(vec![tf("Expected a views file or a list of views.", &[])]),
    };
    if items.len() > MAX_VIEWS {
        return Err(vec![tf(
            "At most {max} views in one file.",
            &[("max", &MAX_VIEWS.to_string())],
        )]);
    }
    let mut views = Vec::new();
    let mut problems = Vec::new();
    for (at, item) in items.into_iter().enumerate() {
        match check_view(&item) {
            Ok(view) => views.push(view),
            Err(problem) => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("");
                problems.push(tf(
                    "View {n} {name}: {problem}",
                    &[
                        ("n", &(at + 1).to_string()),
                        (
                            "name",
                            &if name.is_empty() {
                                String::new()
                            } else {
                                format!("“{name}”")
                            },
                        ),
                        ("problem", &problem),
                    ],
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(views)
    } else {
        Err(problems)
    }
}

/// One view of a file, checked: a name, a collection of the contract, a query of the list's
/// parameters only, columns the collection has.
fn check_view(item: &Value) -> Result<SavedView, String> {
    let Some(object) = item.as_object() else {
        return Err(tf("not an object", &[]));
    };
    if let Some(key) = object
        .keys()
        .find(|k| !["name", "collection", "query", "columns"].contains(&k.as_str()))
    {
        return Err(tf("unknown key \"{key}\"", &[("key", key)]));
    }
    let name = object
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or("");
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(tf(
            "a name of 1 to {max} characters is needed",
            &[("max", &MAX_NAME.to_string())],
        ));
    }
    let path = object
        .get("collection")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(schema) = schema(path) else {
        return Err(tf("no collection \"{path}\"", &[("path", path)]));
    };
    let query = object.get("query").and_then(Value::as_str).unwrap_or("");
    let pairs = query_pairs(query);
    if let Some((key, _)) = pairs
        .iter()
        .find(|(k, _)| !VIEW_PARAMS.contains(&k.as_str()))
    {
        return Err(tf(
            "the query may hold q, fq, sort and limit only, not \"{key}\"",
            &[("key", key)],
        ));
    }
    if let Some((_, limit)) = pairs.iter().find(|(k, _)| k == "limit") {
        if limit.parse::<u32>().ok().filter(|l| *l >= 1).is_none() {
            return Err(tf(
                "the page size \"{limit}\" is not a number",
                &[("limit", limit)],
            ));
        }
    }
    let Some(columns) = object.get("columns").and_then(Value::as_array) else {
        return Err(tf("\"columns\" must be a list of field names", &[]));
    };
    let mut names = Vec::new();
    for column in columns {
        let name = column.as_str().unwrap_or("");
        if known_columns(schema, &[name]).is_empty() {
            return Err(tf(
                "{what} have no column \"{name}\"",
                &[("what", schema.collection.plural), ("name", name)],
            ));
        }
        names.push(name.to_string());
    }
    Ok(SavedView {
        name: name.to_string(),
        collection: path.to_string(),
        query: view_query(&pairs),
        columns: known_columns(schema, &names)
            .into_iter()
            .map(str::to_string)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::schema::schema_of;
    use larder_contract::collections::ARTICLES;

    #[test]
    fn columns_come_from_the_contract_and_unknown_names_drop() {
        let articles = schema_of(&ARTICLES);
        let all = choosable(articles);
        assert!(!all.contains(&"title"));
        assert!(all.contains(&"venue") && all.contains(&"updated_at"));
        assert_eq!(
            columns_from_param(articles, "status, venue,nope,,status"),
            vec!["status", "venue"]
        );
        assert_eq!(columns_param(&["a", "b"]), "a,b");
        let order = dialog_order(articles, &["venue"]);
        assert_eq!(order[0], "venue");
        assert_eq!(order.len(), all.len());
    }

    #[test]
    fn columns_move_and_toggle() {
        let cols = vec!["a", "b", "c"];
        assert_eq!(moved(&cols, "b", -1), vec!["b", "a", "c"]);
        assert_eq!(moved(&cols, "b", 1), vec!["a", "c", "b"]);
        assert_eq!(moved(&cols, "a", -1), cols);
        assert_eq!(moved(&cols, "c", 1), cols);
        assert_eq!(moved(&cols, "zz", 1), cols);
        assert_eq!(toggled(&cols, "b", false), vec!["a", "c"]);
        assert_eq!(toggled(&cols, "d", true), vec!["a", "b", "c", "d"]);
        assert_eq!(toggled(&cols, "a", true), vec!["b", "c", "a"]);
    }

    #[test]
    fn a_view_keeps_the_list_query_and_its_link_restores_it() {
        let pairs = query_pairs("?offset=50&limit=10&q=iron%20%26%20zinc&fq=status%3Aactive%0Alanguage%3Aen&parent=x&sort=title+asc");
        assert_eq!(pairs[2], ("q".to_string(), "iron & zinc".to_string()));
        let query = view_query(&pairs);
        assert_eq!(
            query,
            "q=iron%20%26%20zinc&fq=status%3Aactive%0Alanguage%3Aen&sort=title%20asc&limit=10"
        );
        let view = SavedView {
            name: "Iron".into(),
            collection: "articles".into(),
            query,
            columns: vec!["venue".into(), "status".into()],
        };
        let href = view.href();
        assert!(href.starts_with("/records/articles?q=iron"));
        assert!(href.ends_with("&cols=venue%2Cstatus"));
        let back = query_pairs(href.split_once('?').unwrap().1);
        assert!(back.contains(&("cols".into(), "venue,status".into())));
        assert!(back.contains(&("fq".into(), "status:active\nlanguage:en".into())));
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%41"), "%zzA");
    }

    #[test]
    fn views_export_and_import_and_a_bad_file_is_named_by_view() {
        let view = SavedView {
            name: "Recent".into(),
            collection: "articles".into(),
            query: "sort=publication_year%20desc&limit=50".into(),
            columns: vec!["venue".into()],
        };
        let views = with_view(std::slice::from_ref(&view), view.clone());
        assert_eq!(views.len(), 1);
        let text = export_views(&views);
        assert!(text.contains("\"format\": \"larder-views\""));
        assert_eq!(import_views(&text), Ok(views.clone()));
        assert_eq!(
            import_views(&serde_json::to_string(&views).unwrap()),
            Ok(views)
        );
        let bad = r#"[{"name": "A", "collection": "articles", "query": "", "columns": []},
            {"name": "B", "collection": "nope", "query": "", "columns": []},
            {"name": "", "collection": "articles", "query": "", "columns": []},
            {"name": "D", "collection": "articles", "query": "token=x", "columns": []},
            {"name": "E", "collection": "articles", "query": "", "columns": ["shoe_size"]},
            {"name": "F", "collection": "articles", "query": "limit=zero", "columns": []},
            {"name": "G", "collection": "articles", "query": "", "columns": [], "extra": 1}]"#;
        let problems = import_views(bad).unwrap_err();
        assert_eq!(problems.len(), 6, "{problems:?}");
        assert!(problems[0].starts_with("View 2 “B”: no collection"));
        assert!(problems[1].starts_with("View 3 : a name"));
        assert!(problems[2].contains("not \"token\""));
        assert!(problems[3].contains("no column \"shoe_size\""));
        assert!(problems[4].contains("page size"));
        assert!(problems[5].contains("unknown key \"extra\""));
        assert!(import_views("{\"views\": []}").unwrap_err()[0].contains("not a views file"));
        assert!(import_views("nope").unwrap_err()[0].starts_with("Not valid JSON"));
    }

    #[test]
    fn a_views_text_is_bounded_in_bytes_and_values() {
        let long = format!("[{}]", " ".repeat(MAX_FILE_BYTES));
        assert!(import_views(&long).unwrap_err()[0].starts_with("The text is"));
        let zeros = format!("[{}0]", "0,".repeat(MAX_JSON_VALUES));
        assert!(import_views(&zeros).unwrap_err()[0].starts_with("More than 100000 values"));
    }
}
