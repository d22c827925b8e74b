//! The seven data collections as one table of descriptors.

use crate::roles::{ADMIN, AGENT, EXPERT};

/// How records of a collection are identified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdentifierKind {
    /// A URN `urn:<urn_type>:<slug>`; a create sends the slug.
    Urn {
        /// The middle part of the URN, e.g. `article`.
        urn_type: &'static str,
    },
    /// A UUID string in `id`.
    Uuid,
}

/// Who may write to a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteRoles {
    /// Any signed-in caller.
    AnySignedIn,
    /// Callers holding one of these roles.
    Roles(&'static [&'static str]),
}

impl WriteRoles {
    /// Whether a caller with `roles` passes.
    pub fn allows(&self, roles: &[String]) -> bool {
        match self {
            WriteRoles::AnySignedIn => true,
            WriteRoles::Roles(allowed) => roles.iter().any(|r| allowed.contains(&r.as_str())),
        }
    }
}

/// One data collection of the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collection {
    /// The path segment, e.g. `articles`.
    pub path: &'static str,
    /// A human name for one record, e.g. `Article`.
    pub singular: &'static str,
    /// How records are identified.
    pub identifier: IdentifierKind,
    /// The value of `type` on a new record, when the collection has one.
    pub record_type: Option<&'static str>,
    /// Fields an update never sends and the service never changes.
    pub immutable: &'static [&'static str],
    /// Whether `POST {path}/search` exists at the top level.
    pub searchable: bool,
    /// Who may create and update.
    pub write_roles: WriteRoles,
    /// Who may delete.
    pub delete_roles: WriteRoles,
    /// The `status` of a new record, when the collection has a status.
    pub default_status: Option<&'static str>,
    /// Whether new records get review_status, visibility and applicability_status defaults.
    pub has_review: bool,
}

const CURATORS: WriteRoles = WriteRoles::Roles(&[ADMIN, EXPERT]);
const RECORD_IMMUTABLE: &[&str] = &["urn", "id", "creator", "created_at", "updated_at"];
const TYPED_IMMUTABLE: &[&str] = &["urn", "id", "type", "creator", "created_at", "updated_at"];

/// Articles.
pub const ARTICLES: Collection = Collection {
    path: "articles",
    singular: "Article",
    identifier: IdentifierKind::Urn {
        urn_type: "article",
    },
    record_type: Some("article"),
    immutable: RECORD_IMMUTABLE,
    searchable: true,
    write_roles: WriteRoles::Roles(&[ADMIN, EXPERT, AGENT]),
    delete_roles: WriteRoles::Roles(&[ADMIN, EXPERT, AGENT]),
    default_status: Some("active"),
    has_review: false,
};

/// Dietary guides.
pub const GUIDES: Collection = Collection {
    path: "guides",
    singular: "Guide",
    identifier: IdentifierKind::Urn { urn_type: "guide" },
    record_type: Some("guide"),
    immutable: TYPED_IMMUTABLE,
    searchable: true,
    write_roles: CURATORS,
    delete_roles: WriteRoles::Roles(&[ADMIN]),
    default_status: Some("active"),
    has_review: true,
};

/// Guidelines, the rules of a guide.
pub const GUIDELINES: Collection = Collection {
    path: "guidelines",
    singular: "Guideline",
    identifier: IdentifierKind::Uuid,
    record_type: None,
    immutable: &[
        "id",
        "guide_urn",
        "guide_region",
        "creator",
        "created_at",
        "updated_at",
    ],
    searchable: true,
    write_roles: CURATORS,
    delete_roles: CURATORS,
    default_status: Some("draft"),
    has_review: true,
};

/// Textbooks.
pub const TEXTBOOKS: Collection = Collection {
    path: "textbooks",
    singular: "Textbook",
    identifier: IdentifierKind::Urn {
        urn_type: "textbook",
    },
    record_type: Some("textbook"),
    immutable: TYPED_IMMUTABLE,
    searchable: true,
    write_roles: CURATORS,
    delete_roles: CURATORS,
    default_status: Some("draft"),
    has_review: true,
};

/// Passages extracted from textbooks.
pub const TEXTBOOK_PASSAGES: Collection = Collection {
    path: "textbook-passages",
    singular: "Passage",
    identifier: IdentifierKind::Uuid,
    record_type: None,
    immutable: &[
        "id",
        "textbook_urn",
        "artifact_id",
        "structure_node_id",
        "structure_path",
        "creator",
        "created_at",
        "updated_at",
    ],
    searchable: false,
    write_roles: CURATORS,
    delete_roles: CURATORS,
    default_status: None,
    has_review: false,
};

/// Food composition tables.
pub const FCTABLES: Collection = Collection {
    path: "fctables",
    singular: "Food composition table",
    identifier: IdentifierKind::Urn {
        urn_type: "fctable",
    },
    record_type: Some("food_composition_table"),
    immutable: RECORD_IMMUTABLE,
    searchable: true,
    write_roles: WriteRoles::AnySignedIn,
    delete_roles: WriteRoles::AnySignedIn,
    default_status: Some("active"),
    has_review: false,
};

/// Files attached to records.
pub const ARTIFACTS: Collection = Collection {
    path: "artifacts",
    singular: "Artifact",
    identifier: IdentifierKind::Uuid,
    record_type: Some("artifact"),
    immutable: &[
        "id",
        "parent_urn",
        "type",
        "creator",
        "created_at",
        "updated_at",
    ],
    searchable: false,
    write_roles: CURATORS,
    delete_roles: CURATORS,
    default_status: None,
    has_review: false,
};

/// Every data collection, in the console's menu order.
pub const COLLECTIONS: [Collection; 7] = [
    ARTICLES,
    GUIDES,
    GUIDELINES,
    TEXTBOOKS,
    TEXTBOOK_PASSAGES,
    FCTABLES,
    ARTIFACTS,
];

impl Collection {
    /// Finds a collection by its path segment.
    pub fn by_path(path: &str) -> Option<&'static Collection> {
        COLLECTIONS.iter().find(|c| c.path == path)
    }

    /// The URN prefix, e.g. `urn:article:`, for URN collections.
    pub fn urn_prefix(&self) -> Option<String> {
        match self.identifier {
            IdentifierKind::Urn { urn_type } => Some(format!("urn:{urn_type}:")),
            IdentifierKind::Uuid => None,
        }
    }

    /// Whether `field` may be sent in an update.
    pub fn is_mutable(&self, field: &str) -> bool {
        !self.immutable.contains(&field)
    }

    /// Turns a slug or a full URN into the full URN; other strings are returned as they are.
    pub fn full_urn(&self, slug_or_urn: &str) -> String {
        match self.urn_prefix() {
            Some(prefix) if !slug_or_urn.starts_with("urn:") => format!("{prefix}{slug_or_urn}"),
            _ => slug_or_urn.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_unique_and_found() {
        for c in COLLECTIONS {
            assert_eq!(Collection::by_path(c.path), Some(&c));
        }
        assert!(Collection::by_path("households").is_none());
    }

    #[test]
    fn urns_get_their_prefix_once() {
        assert_eq!(ARTICLES.full_urn("vit-d"), "urn:article:vit-d");
        assert_eq!(ARTICLES.full_urn("urn:article:vit-d"), "urn:article:vit-d");
        assert_eq!(FCTABLES.urn_prefix().as_deref(), Some("urn:fctable:"));
        assert_eq!(ARTIFACTS.urn_prefix(), None);
    }

    #[test]
    fn immutables_follow_wire_notes() {
        assert!(!GUIDES.is_mutable("type"));
        assert!(ARTICLES.is_mutable("type"));
        assert!(!TEXTBOOK_PASSAGES.is_mutable("structure_path"));
        assert!(GUIDELINES.is_mutable("rule_text"));
    }

    #[test]
    fn write_roles() {
        let expert = vec!["expert".to_string()];
        let agent = vec!["agent".to_string()];
        assert!(ARTICLES.write_roles.allows(&agent));
        assert!(!GUIDES.write_roles.allows(&agent));
        assert!(!GUIDES.delete_roles.allows(&expert));
        assert!(FCTABLES.write_roles.allows(&[]));
    }
}
