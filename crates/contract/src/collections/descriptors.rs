//! The types that describe a collection: how its records are identified, which routes exist,
//! its parent, its role rules and read rule, and the questions a caller asks of a [`Collection`].

use super::access::{Offered, WriteRoles};
use super::COLLECTIONS;
use crate::types::Field;

/// How records of a collection are identified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdentifierKind {
    /// A URN `urn:<urn_type>:<slug>`; a create sends the slug in `urn`, and item paths take the
    /// slug or the full URN.
    Urn {
        /// The middle part of the URN, e.g. `article`.
        urn_type: &'static str,
    },
    /// A UUID in `id`; item paths take only its canonical lower-case form.
    Uuid,
}

/// The routes of a collection beyond get, create, patch and delete of one record (which every
/// collection has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routes {
    /// `GET {path}?limit&offset`: identifiers.
    pub list: Offered,
    /// `POST {path}/search`.
    pub search: Offered,
    /// `GET {path}/search?q&limit` (interface.md's older form).
    pub search_get: Offered,
    /// Whether a search's `fl` may leave fields out. Production validates each guideline's and
    /// passage's hit against the full record, so an `fl` that leaves out a required field
    /// answers 500 (production.md §1.6, §7 row 14): a client asks those for whole records.
    pub search_narrows: bool,
    /// `PUT {path}/{id}`.
    pub put: Offered,
    /// `PATCH {path}/{urn}/enhance`.
    pub enhance: Offered,
    /// The listing of a parent's records: `artifacts?parent_urn=` or `.../by-<parent>/{urn}`.
    pub children: Offered,
    /// `DELETE {path}/{id}` (organizations have none: production answers a bare 405).
    pub delete: Offered,
    /// `GET {path}/autocomplete?q=&limit=`.
    pub autocomplete: Autocomplete,
}

/// `GET {path}/autocomplete?q=&limit=15` (production.md §10.7): a list of small items for a
/// reference picker, no total, no offset. Production's is its full-text search (a whole word,
/// not a prefix), so a picker falls back to a search where it finds nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Autocomplete {
    /// Where it is served.
    pub offered: Offered,
    /// The keys of each item, as production's `src/schemas/autocomplete.py` names them.
    pub item: &'static [&'static str],
    /// Whether production's route answers what it promises; its guidelines route answers 500 on
    /// any hit (production.md §10.7), so a picker searches there instead.
    pub works_in_production: bool,
}

impl Autocomplete {
    /// Whether a picker can use the route on a service of production's kind.
    pub fn usable_in_production(&self) -> bool {
        self.offered.by_production() && self.works_in_production
    }
}

/// The record a child hangs from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parent {
    /// The field naming the parent's full URN.
    pub field: &'static str,
    /// The parent's collection, `None` when any URN record may be the parent.
    pub collection: Option<&'static str>,
    /// The segment of the by-parent routes (`by-guide`); `None` lists with `?{field}=`.
    pub by: Option<&'static str>,
}

/// The role gates of a collection's writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roles {
    /// Create (and imports, uploads, bulk replacement).
    pub create: WriteRoles,
    /// Update.
    pub update: WriteRoles,
    /// Delete.
    pub delete: WriteRoles,
    /// Enhance.
    pub enhance: WriteRoles,
}

/// Which records callers without `admin` or `expert` may read (production.md §1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadRule {
    /// Every record.
    Always,
    /// `review_status` verified or `status` active.
    ActiveOrVerified,
    /// `visibility` public and (verified or active).
    PublicAndActiveOrVerified,
    /// As the parent record.
    AsParent,
    /// `reader_visibility` absent or `public` (production.md §8 row 4; see `policy`).
    ReaderVisibility,
}

/// How a console lists a collection's records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Browsing {
    /// `GET {path}` pages through them.
    List,
    /// Per parent of this collection, through the by-parent route (a textbook's passages).
    ByParent(&'static Collection),
    /// No listing production offers: they are shown on their parents' pages (artifacts).
    OnTheirParents,
}

/// One data collection of the API.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collection {
    /// The path segment, e.g. `articles`.
    pub path: &'static str,
    /// A human name for one record, e.g. `Article`.
    pub singular: &'static str,
    /// A human name for several, e.g. `Articles`.
    pub plural: &'static str,
    /// How records are identified.
    pub identifier: IdentifierKind,
    /// The record this collection's records hang from.
    pub parent: Option<Parent>,
    /// The create schema: every key a create may carry (any other is a 422).
    pub create: &'static [Field],
    /// The update allow-list (any other key is a 422).
    pub update: &'static [Field],
    /// Fields the service sets; no write may carry them.
    pub service_set: &'static [Field],
    /// Fields computed on every read (embedded children).
    pub derived: &'static [Field],
    /// Values a create gets when it leaves them out.
    pub defaults: &'static [(&'static str, &'static str)],
    /// Values a person's create form starts with where production's own default would refuse
    /// the create: a guide left without a status is `active` and `unreviewed`, which production
    /// answers with 409 (production.md §2.2), so the form starts at `draft`.
    pub starts: &'static [(&'static str, &'static str)],
    /// The value of `type` the service stamps on records, if any.
    pub record_type: Option<&'static str>,
    /// Fields whose `null` in an update clears them (every other `null` is dropped).
    pub clearable: &'static [&'static str],
    /// A record whose fields hold all these values can no longer be changed or deleted (a
    /// published guide: active and public); empty when nothing freezes a record.
    pub frozen_when: &'static [(&'static str, &'static str)],
    /// Fields a create should carry although production's schema takes it without them: a
    /// record stored without them can no longer be read there (an article without authors).
    pub advised: &'static [&'static str],
    /// Fields a machine writes (extraction, enrichment): shown read-only, never offered in a
    /// person's form, though a create by a pipeline may carry some (guidelines' provenance,
    /// production.md §10.5).
    pub provenance: &'static [&'static str],
    /// Fields a write takes that production's read leaves out (an organization's `status`,
    /// production.md §2.8): stored, never answered.
    pub write_only: &'static [&'static str],
    /// Which routes exist.
    pub routes: Routes,
    /// Who may write.
    pub roles: Roles,
    /// Who may read.
    pub read_rule: ReadRule,
}

impl Collection {
    /// Finds a collection by its path segment.
    pub fn by_path(path: &str) -> Option<&'static Collection> {
        COLLECTIONS.iter().find(|c| c.path == path)
    }

    /// The collection of a full URN (`urn:guide:x` → guides).
    pub fn of_urn(urn: &str) -> Option<&'static Collection> {
        let urn_type = urn.strip_prefix("urn:")?.split(':').next()?;
        COLLECTIONS
            .iter()
            .find(|c| matches!(c.identifier, IdentifierKind::Urn { urn_type: t } if t == urn_type))
    }

    /// The URN prefix, e.g. `urn:article:`, for URN collections.
    pub fn urn_prefix(&self) -> Option<String> {
        match self.identifier {
            IdentifierKind::Urn { urn_type } => Some(format!("urn:{urn_type}:")),
            IdentifierKind::Uuid => None,
        }
    }

    /// Whether records are identified by URN.
    pub fn has_urn(&self) -> bool {
        matches!(self.identifier, IdentifierKind::Urn { .. })
    }

    /// The field that names a record: `urn`, or `id` for collections identified by UUID.
    pub fn identifier_field(&self) -> &'static str {
        if self.has_urn() {
            "urn"
        } else {
            "id"
        }
    }

    /// Whether an update may carry `field` (production's allow-list).
    pub fn is_updatable(&self, field: &str) -> bool {
        self.update.iter().any(|f| f.name == field)
    }

    /// Whether a create may carry `field`.
    pub fn is_creatable(&self, field: &str) -> bool {
        self.create.iter().any(|f| f.name == field)
    }

    /// A known field by name: create, update, service-set or derived.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.create
            .iter()
            .chain(self.update)
            .chain(self.service_set)
            .chain(self.derived)
            .find(|f| f.name == name)
    }

    /// Every known field once, in display order: the create schema, what only an update takes,
    /// then what the service sets and derives.
    pub fn fields(&self) -> Vec<&'static Field> {
        let mut out: Vec<&'static Field> = Vec::new();
        for field in self
            .create
            .iter()
            .chain(self.update)
            .chain(self.service_set)
            .chain(self.derived)
        {
            if !out.iter().any(|f| f.name == field.name) {
                out.push(field);
            }
        }
        out
    }

    /// Turns a slug or a full URN into the full URN; other strings are returned as they are.
    pub fn full_urn(&self, slug_or_urn: &str) -> String {
        match self.urn_prefix() {
            Some(prefix) if !slug_or_urn.starts_with("urn:") => format!("{prefix}{slug_or_urn}"),
            _ => slug_or_urn.to_string(),
        }
    }

    /// Whether `record` is frozen: production refuses every change and delete (409).
    pub fn is_frozen(&self, record: &serde_json::Map<String, serde_json::Value>) -> bool {
        !self.frozen_when.is_empty()
            && self
                .frozen_when
                .iter()
                .all(|(field, value)| record.get(*field).and_then(|v| v.as_str()) == Some(*value))
    }

    /// How a console lists the collection's records.
    pub fn browsing(&self) -> Browsing {
        if self.routes.list != Offered::Absent {
            return Browsing::List;
        }
        match self.parent {
            Some(Parent {
                collection: Some(parent),
                by: Some(_),
                ..
            }) if self.routes.children.by_production() => Collection::by_path(parent)
                .map(Browsing::ByParent)
                .unwrap_or(Browsing::OnTheirParents),
            _ => Browsing::OnTheirParents,
        }
    }

    /// The path that lists the children of `parent_urn`: `{path}/{by}/{urn}`, or
    /// `{path}?{field}=` (only interface.md has that one).
    pub fn children_path(
        &self,
        parent_urn_segment: &str,
    ) -> Option<(String, Option<(&'static str, String)>)> {
        let parent = self.parent?;
        Some(match parent.by {
            Some(by) => (format!("{}/{by}/{parent_urn_segment}", self.path), None),
            None => (
                self.path.to_string(),
                Some((parent.field, parent_urn_segment.to_string())),
            ),
        })
    }

    /// The bulk reading-policy route, where the collection has one.
    pub fn reading_policy(&self) -> Option<&'static super::policy::ReadingPolicy> {
        super::policy::READING_POLICIES
            .iter()
            .find(|p| p.collection == self.path)
    }

    /// Whether the console may offer a record's editing to a caller with `roles`.
    pub fn can_update(&self, roles: &[String]) -> bool {
        self.roles.update.allows(roles)
    }

    /// Whether a machine writes `field` (shown read-only, see [`Collection::provenance`]).
    pub fn is_provenance(&self, field: &str) -> bool {
        self.provenance.contains(&field)
    }
}
