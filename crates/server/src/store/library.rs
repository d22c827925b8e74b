//! A member's library (production.md §10.3, later routes): saved items of four types (a
//! favourite recipe is a saved item of type `recipe`), adapted recipes, one per recipe, and saved
//! meal plans, snapshots under a name. Each kind is capped per member by the caller.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use super::Store;

/// Library operations.
pub struct Library<'a> {
    pub(super) store: &'a Store,
}

fn parse(doc: String) -> Value {
    serde_json::from_str(&doc).unwrap_or(Value::Null)
}

/// A saved item as production answers it.
fn saved_item(item_type: String, item_ref: String, created_at: String) -> Value {
    json!({"item_type": item_type, "item_ref": item_ref, "created_at": created_at})
}

fn one_saved_item(
    conn: &Connection,
    member_id: &str,
    item_type: &str,
    item_ref: &str,
) -> rusqlite::Result<Option<Value>> {
    conn.query_row(
        "SELECT created_at FROM saved_items WHERE member_id = ?1 AND item_type = ?2 AND item_ref = ?3",
        params![member_id, item_type, item_ref],
        |row| row.get::<_, String>(0),
    )
    .optional()
    .map(|at| at.map(|at| saved_item(item_type.into(), item_ref.into(), at)))
}

fn count(conn: &Connection, sql: &str, member_id: &str) -> rusqlite::Result<u64> {
    conn.query_row(sql, [member_id], |row| row.get(0))
}

/// What a write that may pass a cap came to.
#[derive(Debug, PartialEq)]
pub enum Kept {
    /// Stored (or found already stored); the thing as answered.
    Kept(Value),
    /// The member holds as many as the cap allows already.
    Full,
}

impl Library<'_> {
    /// A member's saved items, newest first, of one type or all.
    pub fn saved_items(
        &self,
        member_id: &str,
        item_type: Option<&str>,
    ) -> rusqlite::Result<Vec<Value>> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT item_type, item_ref, created_at FROM saved_items
                 WHERE member_id = ?1 AND (?2 IS NULL OR item_type = ?2) ORDER BY created_at DESC, rowid DESC",
            )?;
            let items = statement.query_map(params![member_id, item_type], |row| {
                Ok(saved_item(row.get(0)?, row.get(1)?, row.get(2)?))
            })?;
            items.collect()
        })
    }

    /// Saves an item (idempotent: the stored one is answered again), unless the member holds
    /// `cap` already.
    pub fn save_item(
        &self,
        member_id: &str,
        item_type: &str,
        item_ref: &str,
        created_at: &str,
        cap: u64,
    ) -> rusqlite::Result<Kept> {
        self.store.transaction(|tx| {
            if let Some(item) = one_saved_item(tx, member_id, item_type, item_ref)? {
                return Ok(Kept::Kept(item));
            }
            if count(tx, "SELECT count(*) FROM saved_items WHERE member_id = ?1", member_id)? >= cap {
                return Ok(Kept::Full);
            }
            tx.execute(
                "INSERT INTO saved_items (member_id, item_type, item_ref, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![member_id, item_type, item_ref, created_at],
            )?;
            Ok(Kept::Kept(saved_item(item_type.into(), item_ref.into(), created_at.into())))
        })
    }

    /// Removes a saved item; whether there was one.
    pub fn remove_item(
        &self,
        member_id: &str,
        item_type: &str,
        item_ref: &str,
    ) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute(
                "DELETE FROM saved_items WHERE member_id = ?1 AND item_type = ?2 AND item_ref = ?3",
                params![member_id, item_type, item_ref],
            )
            .map(|n| n > 0)
        })
    }

    /// A member's adapted recipes, the last changed first.
    pub fn adapted_recipes(&self, member_id: &str) -> rusqlite::Result<Vec<Value>> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT doc FROM adapted_recipes WHERE member_id = ?1 ORDER BY updated_at DESC, rowid DESC",
            )?;
            let docs = statement.query_map([member_id], |row| row.get::<_, String>(0))?;
            docs.map(|doc| doc.map(parse)).collect()
        })
    }

    /// One adapted recipe.
    pub fn adapted_recipe(
        &self,
        member_id: &str,
        recipe_id: &str,
    ) -> rusqlite::Result<Option<Value>> {
        self.store.read(|conn| {
            conn.query_row(
                "SELECT doc FROM adapted_recipes WHERE member_id = ?1 AND recipe_id = ?2",
                params![member_id, recipe_id],
                |row| row.get::<_, String>(0),
            )
            .optional()
            .map(|doc| doc.map(parse))
        })
    }

    /// Saves or replaces an adapted recipe (its title and payload); `now` stamps it.
    pub fn put_adapted_recipe(
        &self,
        member_id: &str,
        recipe_id: &str,
        title: &Value,
        payload: &Value,
        now: &str,
        cap: u64,
    ) -> rusqlite::Result<Kept> {
        self.store.transaction(|tx| {
            let existing: Option<String> = tx
                .query_row(
                    "SELECT doc FROM adapted_recipes WHERE member_id = ?1 AND recipe_id = ?2",
                    params![member_id, recipe_id],
                    |row| row.get(0),
                )
                .optional()?;
            let created_at = match existing.map(parse) {
                Some(doc) => doc["created_at"].clone(),
                None => {
                    let held = count(tx, "SELECT count(*) FROM adapted_recipes WHERE member_id = ?1", member_id)?;
                    if held >= cap {
                        return Ok(Kept::Full);
                    }
                    json!(now)
                }
            };
            let doc = json!({
                "recipe_id": recipe_id, "title": title, "payload": payload,
                "created_at": created_at, "updated_at": now,
            });
            tx.execute(
                "INSERT INTO adapted_recipes (member_id, recipe_id, updated_at, doc) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (member_id, recipe_id) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc",
                params![member_id, recipe_id, now, doc.to_string()],
            )?;
            Ok(Kept::Kept(doc))
        })
    }

    /// Removes an adapted recipe; whether there was one.
    pub fn remove_adapted_recipe(
        &self,
        member_id: &str,
        recipe_id: &str,
    ) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute(
                "DELETE FROM adapted_recipes WHERE member_id = ?1 AND recipe_id = ?2",
                params![member_id, recipe_id],
            )
            .map(|n| n > 0)
        })
    }

    /// A member's saved meal plans, newest first.
    pub fn saved_plans(&self, member_id: &str) -> rusqlite::Result<Vec<Value>> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT doc FROM saved_meal_plans WHERE member_id = ?1 ORDER BY created_at DESC, id DESC",
            )?;
            let docs = statement.query_map([member_id], |row| row.get::<_, String>(0))?;
            docs.map(|doc| doc.map(parse)).collect()
        })
    }

    /// One saved meal plan of the member.
    pub fn saved_plan(&self, member_id: &str, id: &str) -> rusqlite::Result<Option<Value>> {
        self.store.read(|conn| {
            conn.query_row(
                "SELECT doc FROM saved_meal_plans WHERE member_id = ?1 AND id = ?2",
                params![member_id, id],
                |row| row.get::<_, String>(0),
            )
            .optional()
            .map(|doc| doc.map(parse))
        })
    }

    /// Saves a snapshot: a new entry, or, when the member saved the same source plan before,
    /// that entry with the new name, meals and reasoning (production's `save`). `snapshot` holds
    /// `name`, the meals, `reasoning`, `source_meal_plan_id` and `source_applied_on`; `id` and
    /// `now` serve a new entry.
    pub fn save_plan(
        &self,
        member_id: &str,
        snapshot: &Value,
        id: &str,
        now: &str,
        cap: u64,
    ) -> rusqlite::Result<Kept> {
        let source = snapshot["source_meal_plan_id"]
            .as_str()
            .filter(|s| !s.is_empty());
        self.store.transaction(|tx| {
            let existing: Option<String> = match source {
                Some(source) => tx
                    .query_row(
                        "SELECT doc FROM saved_meal_plans WHERE member_id = ?1 AND source_meal_plan_id = ?2",
                        params![member_id, source],
                        |row| row.get(0),
                    )
                    .optional()?,
                None => None,
            };
            if let Some(mut doc) = existing.map(parse) {
                for key in ["name", "breakfast", "lunch", "dinner", "reasoning"] {
                    doc[key] = snapshot[key].clone();
                }
                if !snapshot["source_applied_on"].is_null() {
                    doc["source_applied_on"] = snapshot["source_applied_on"].clone();
                }
                doc["updated_at"] = json!(now);
                let id = doc["id"].as_str().unwrap_or_default().to_string();
                tx.execute(
                    "UPDATE saved_meal_plans SET doc = ?2 WHERE id = ?1",
                    params![id, doc.to_string()],
                )?;
                return Ok(Kept::Kept(doc));
            }
            if count(tx, "SELECT count(*) FROM saved_meal_plans WHERE member_id = ?1", member_id)? >= cap {
                return Ok(Kept::Full);
            }
            let mut doc = snapshot.clone();
            doc["id"] = json!(id);
            doc["member_id"] = json!(member_id);
            doc["created_at"] = json!(now);
            doc["updated_at"] = json!(now);
            tx.execute(
                "INSERT INTO saved_meal_plans (id, member_id, source_meal_plan_id, created_at, doc) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, member_id, source, now, doc.to_string()],
            )?;
            Ok(Kept::Kept(doc))
        })
    }

    /// Renames a saved meal plan of the member; the renamed entry, `None` when there is none.
    pub fn rename_plan(
        &self,
        member_id: &str,
        id: &str,
        name: &str,
        now: &str,
    ) -> rusqlite::Result<Option<Value>> {
        self.store.transaction(|tx| {
            let found: Option<String> = tx
                .query_row(
                    "SELECT doc FROM saved_meal_plans WHERE member_id = ?1 AND id = ?2",
                    params![member_id, id],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(mut doc) = found.map(parse) else {
                return Ok(None);
            };
            doc["name"] = json!(name);
            doc["updated_at"] = json!(now);
            tx.execute(
                "UPDATE saved_meal_plans SET doc = ?2 WHERE id = ?1",
                params![id, doc.to_string()],
            )?;
            Ok(Some(doc))
        })
    }

    /// Deletes a saved meal plan of the member; whether there was one.
    pub fn delete_plan(&self, member_id: &str, id: &str) -> rusqlite::Result<bool> {
        self.store.with(|conn| {
            conn.execute(
                "DELETE FROM saved_meal_plans WHERE member_id = ?1 AND id = ?2",
                params![member_id, id],
            )
            .map(|n| n > 0)
        })
    }
}
