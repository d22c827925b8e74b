//! The nine data collections, each described once from production.md: its routes (and those
//! only interface.md asks for), its create schema, its update allow-list, the fields the service
//! sets or derives, its parent, its identifier form and its role rules.
//!
//! The reference service validates with these tables and the console builds its lists, detail
//! pages, forms and role gates from them; `tests/production_tables.rs` checks every allow-list
//! and required set against production.md itself.
//!
//! The descriptor types live in `descriptors` (who may call a route and who serves it in
//! `access`), the blocks the tables share in `shared`, and each
//! collection's table in a file of its own.

mod access;
mod articles;
mod artifacts;
mod descriptors;
mod fctables;
pub mod guidelines;
mod guides;
mod organizations;
mod passages;
pub mod policy;
mod rcollections;
mod record_rules;
pub mod references;
mod shared;
mod textbooks;

pub use access::{Offered, WriteRoles, ADMINS, CURATORS, CURATORS_AND_AGENTS};
pub use articles::{ARTICLES, ENHANCE_BODY, ENHANCE_FIELDS};
pub use artifacts::ARTIFACTS;
pub use descriptors::{
    Autocomplete, Browsing, Collection, IdentifierKind, Parent, ReadRule, Roles, Routes,
};
pub use fctables::FCTABLES;
pub use guidelines::{
    check_age_range, ENRICHABLE, ENRICHABLE_NAMES, ENRICH_BATCH_BODY, ENRICH_BATCH_ITEM,
    ENRICH_BODY, GUIDELINES, GUIDELINE_FACETS, GUIDELINE_IMPORT, GUIDELINE_ITEM,
    GUIDELINE_PROVENANCE,
};
pub use guides::GUIDES;
pub use organizations::ORGANIZATIONS;
pub use passages::{PASSAGE_ITEM, PASSAGE_REPLACE, TEXTBOOK_PASSAGES};
pub use rcollections::RCOLLECTIONS;
pub use record_rules::record_rules;
pub use textbooks::{TEXTBOOKS, TREE_NODE};

/// Every data collection, in the console's menu order.
pub const COLLECTIONS: [Collection; 9] = [
    ARTICLES,
    GUIDES,
    GUIDELINES,
    TEXTBOOKS,
    TEXTBOOK_PASSAGES,
    FCTABLES,
    ARTIFACTS,
    ORGANIZATIONS,
    RCOLLECTIONS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_unique_and_found() {
        for c in COLLECTIONS {
            assert_eq!(Collection::by_path(c.path), Some(&c));
        }
        assert!(Collection::by_path("households").is_none());
        assert_eq!(
            Collection::of_urn("urn:fctable:x").map(|c| c.path),
            Some("fctables")
        );
        assert_eq!(Collection::of_urn("urn:thing:x"), None);
    }

    #[test]
    fn urns_get_their_prefix_once() {
        assert_eq!(ARTICLES.full_urn("vit-d"), "urn:article:vit-d");
        assert_eq!(ARTICLES.full_urn("urn:article:vit-d"), "urn:article:vit-d");
        assert_eq!(FCTABLES.urn_prefix().as_deref(), Some("urn:fctable:"));
        assert_eq!(ARTIFACTS.urn_prefix(), None);
    }

    #[test]
    fn every_field_is_listed_once() {
        for c in COLLECTIONS {
            for list in [c.create, c.update, c.service_set, c.derived] {
                let mut names: Vec<&str> = list.iter().map(|f| f.name).collect();
                let count = names.len();
                names.sort_unstable();
                names.dedup();
                assert_eq!(names.len(), count, "{}: a list names a field twice", c.path);
            }
            for f in c.update {
                let created = c.create.iter().find(|x| x.name == f.name);
                if let Some(created) = created {
                    assert_eq!(created.ty, f.ty, "{}.{}", c.path, f.name);
                }
            }
        }
    }

    #[test]
    fn how_each_collection_is_browsed() {
        assert_eq!(ARTICLES.browsing(), Browsing::List);
        assert_eq!(GUIDELINES.browsing(), Browsing::List);
        assert_eq!(TEXTBOOK_PASSAGES.browsing(), Browsing::ByParent(&TEXTBOOKS));
        assert_eq!(ARTIFACTS.browsing(), Browsing::OnTheirParents);
        assert_eq!(
            GUIDELINES.children_path("urn:guide:g"),
            Some(("guidelines/by-guide/urn:guide:g".to_string(), None))
        );
        assert_eq!(
            ARTIFACTS.children_path("urn:guide:g"),
            Some((
                "artifacts".to_string(),
                Some(("parent_urn", "urn:guide:g".to_string()))
            ))
        );
        assert_eq!(ARTICLES.children_path("x"), None);
    }

    #[test]
    fn roles_compare_lower_cased() {
        let expert = vec![" Expert ".to_string()];
        let agent = vec!["agent".to_string()];
        assert!(ARTICLES.roles.create.allows(&agent));
        assert!(!GUIDES.roles.create.allows(&agent));
        assert!(GUIDES.roles.create.allows(&expert));
        assert!(!GUIDES.roles.delete.allows(&expert));
        assert!(FCTABLES.roles.create.allows(&[]));
    }
}
