//! What the index holds of a collection's fields, for the status page's index report.

use std::collections::BTreeSet;

use larder_contract::Collection;

use super::Index;

impl Index {
    /// The top-level fields (the part of a dotted path before its first `.`) some record of
    /// `collection` holds a value of, and how many records of it are indexed: what the index can
    /// filter, sort and facet that collection by (a status page's "mapped fields").
    pub fn fields_of(&self, collection: &Collection) -> (BTreeSet<String>, u64) {
        let number = Self::number(collection);
        let mut ids = BTreeSet::new();
        let mut records = 0;
        for (rid, doc) in self.docs.iter().enumerate() {
            let Some(doc) = doc else { continue };
            if !self.is_in(rid as u32, number) {
                continue;
            }
            records += 1;
            ids.extend(doc.fields.iter().copied());
        }
        let names = ids
            .into_iter()
            .filter_map(|id| self.field_names.get(id as usize)?.as_deref())
            .map(|name| name.split('.').next().unwrap_or(name).to_string())
            .collect();
        (names, records)
    }
}
