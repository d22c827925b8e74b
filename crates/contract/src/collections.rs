//! The seven data collections, each described once from production.md: its routes (and those
//! only interface.md asks for), its create schema, its update allow-list, the fields the service
//! sets or derives, its parent, its identifier form and its role rules.
//!
//! The reference service validates with these tables and the console builds its lists, detail
//! pages, forms and role gates from them; `tests/production_tables.rs` checks every allow-list
//! and required set against production.md itself.

use crate::enums::{
    ACTION_TYPE, APPLICABILITY_STATUS, FOOD_GROUPS, FREQUENCY, NODE_KIND, REVIEW_STATUS, STATUS,
    TARGET_POPULATIONS, VISIBILITY,
};
use crate::roles::{ADMIN, AGENT, EXPERT};
use crate::types::{
    int_from, list, Field, Type, INT, LICENSES, LINE, PROSE, S15K, S2K, S2K_LIST, TAGS_25,
};

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

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteRoles {
    /// Any signed-in caller.
    AnySignedIn,
    /// Callers holding one of these roles.
    Roles(&'static [&'static str]),
}

impl WriteRoles {
    /// Whether a caller with `roles` passes. Roles compare as production's gate does: trimmed
    /// and lower-cased on both sides.
    pub fn allows(&self, roles: &[String]) -> bool {
        match self {
            WriteRoles::AnySignedIn => true,
            WriteRoles::Roles(allowed) => roles.iter().any(|r| {
                let r = r.trim().to_lowercase();
                allowed.iter().any(|a| *a == r)
            }),
        }
    }
}

/// Whether a route exists, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Production serves it (and so does the reference service).
    Production,
    /// Only interface.md asks for it: the reference service serves it, production answers a
    /// bare 404 or 405, and the console must survive that.
    InterfaceOnly,
    /// Nobody serves it.
    Absent,
}

impl Offered {
    /// Whether the reference service serves it.
    pub fn by_reference(self) -> bool {
        self != Offered::Absent
    }
    /// Whether production serves it.
    pub fn by_production(self) -> bool {
        self == Offered::Production
    }
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
    /// `PUT {path}/{id}`.
    pub put: Offered,
    /// `PATCH {path}/{urn}/enhance`.
    pub enhance: Offered,
    /// The listing of a parent's records: `artifacts?parent_urn=` or `.../by-<parent>/{urn}`.
    pub children: Offered,
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
    /// Which routes exist.
    pub routes: Routes,
    /// Who may write.
    pub roles: Roles,
    /// Who may read.
    pub read_rule: ReadRule,
}

/// Administrators and curators (production's "AE").
pub const CURATORS: WriteRoles = WriteRoles::Roles(&[ADMIN, EXPERT]);
/// Administrators, curators and agents (production's "AEA").
pub const CURATORS_AND_AGENTS: WriteRoles = WriteRoles::Roles(&[ADMIN, EXPERT, AGENT]);
/// Administrators only.
pub const ADMINS: WriteRoles = WriteRoles::Roles(&[ADMIN]);

const fn roles(write: WriteRoles, delete: WriteRoles) -> Roles {
    Roles {
        create: write,
        update: write,
        delete,
        enhance: CURATORS_AND_AGENTS,
    }
}

/// The fields of `create` but those named in `except`, each optional: an update allow-list that
/// production derives from its create schema. `N` must be the count left (checked at compile time).
const fn updatable<const N: usize>(create: &[Field], except: &[&str]) -> [Field; N] {
    let mut out = [create[0].optional(); N];
    let (mut from, mut to) = (0, 0);
    while from < create.len() {
        let mut skip = false;
        let mut e = 0;
        while e < except.len() {
            if same(create[from].name, except[e]) {
                skip = true;
            }
            e += 1;
        }
        if !skip {
            assert!(to < N, "the update list holds more fields than N");
            out[to] = create[from].optional();
            to += 1;
        }
        from += 1;
    }
    assert!(to == N, "the update list holds fewer fields than N");
    out
}

/// `first` followed by `rest`.
const fn with_first<const N: usize>(first: Field, rest: &[Field]) -> [Field; N] {
    assert!(rest.len() + 1 == N);
    let mut out = [first; N];
    let mut i = 0;
    while i < rest.len() {
        out[i + 1] = rest[i];
        i += 1;
    }
    out
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

// ---- shared field types ----

const TIMESTAMP: Type = Type::DateTime;
const LIFECYCLE_STATUS: Type = Type::Enum(STATUS);
const URN: Type = Type::Urn(None);
const DATE: Type = Type::Date;
const PAGE: Type = int_from(1);
const COUNT: Type = int_from(0);
const ARTIFACT_LIST: Type = list(&Type::Object, 0, None);

/// `id`, `creator` and the timestamps: set by the service on every record.
const STAMPS: [Field; 4] = [
    Field::opt("id", Type::Uuid),
    Field::opt("creator", LINE),
    Field::opt("created_at", TIMESTAMP),
    Field::opt("updated_at", TIMESTAMP),
];

// ---- articles (production.md §3.1) ----

const GEOGRAPHIC_CONTEXT: &[Field] = &[
    Field::opt("country_or_region", S2K),
    Field::opt("income_setting", S2K),
];

const ARTICLE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("venue", S2K),
    Field::opt("authors", list(&S2K, 1, Some(1000))),
    Field::opt("publication_year", Type::YearDate),
    Field::opt("type", LINE),
    Field::opt("description", S2K),
    Field::opt("abstract", S15K),
    Field::req("content", PROSE),
    Field::opt("doi", S2K),
    Field::opt("url", Type::Url),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("open_access", Type::Bool),
    Field::opt("study_type", S2K),
    Field::opt("category", S2K),
    Field::opt("reader_group", S2K),
    Field::opt("age_group", S2K),
    Field::opt("population_group", S2K),
    Field::opt("biological_model", S2K),
    Field::opt("external_id", S2K),
    Field::opt("organization_urn", URN),
    Field::opt("citation_count", INT),
    Field::opt("reference_count", INT),
    Field::opt("influential_citation_count", INT),
    Field::opt(
        "annotation_confidence",
        Type::Float {
            min: Some(0.0),
            max: Some(1.0),
        },
    ),
    Field::opt("keywords", list(&S2K, 0, Some(250))),
    Field::opt("topics", list(&S2K, 0, Some(100))),
    Field::opt(
        "tags",
        Type::List {
            item: &S2K,
            min: 0,
            max: Some(50),
            unique: true,
        },
    ),
    Field::opt("key_takeaways", list(&S2K, 0, Some(10))),
    Field::opt("hard_exclusion_flags", list(&S2K, 0, Some(50))),
    Field::opt("geographic_context", Type::Shape(GEOGRAPHIC_CONTEXT)),
    Field::opt("extras", Type::Object),
];

const ARTICLE_UPDATE: &[Field] = &updatable::<31>(ARTICLE_CREATE, &["urn"]);

/// The fields an enhancement may write (production.md §5.3).
pub const ENHANCE_FIELDS: &[Field] = &[
    Field::opt("ai_tags", list(&S2K, 1, Some(100))),
    Field::opt("ai_category", S2K),
    Field::opt("ai_key_takeaways", list(&S2K, 1, Some(100))),
];

/// The body of `PATCH {path}/{urn}/enhance`: the agent and the values it derived.
pub const ENHANCE_BODY: &[Field] = &[
    Field::req("agent", Type::Slug),
    Field::opt("fields", Type::Shape(ENHANCE_FIELDS)),
];

const ARTICLE_SERVICE_SET: &[Field] = &[
    STAMPS[0],
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("language", Type::Lang),
    Field::opt("region", S2K),
    Field::opt("ai_category", S2K),
    Field::opt("ai_tags", S2K_LIST),
    Field::opt("ai_key_takeaways", S2K_LIST),
    Field::opt("embedded_at", TIMESTAMP),
    Field::opt("version", Type::Any),
    STAMPS[1],
    STAMPS[2],
    STAMPS[3],
];

/// Articles (production.md §2.1, §3.1).
pub const ARTICLES: Collection = Collection {
    path: "articles",
    singular: "Article",
    plural: "Articles",
    identifier: IdentifierKind::Urn {
        urn_type: "article",
    },
    parent: None,
    create: ARTICLE_CREATE,
    update: ARTICLE_UPDATE,
    service_set: ARTICLE_SERVICE_SET,
    derived: &[],
    defaults: &[("status", "active")],
    record_type: None,
    clearable: &[],
    advised: &["authors"],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::InterfaceOnly,
        put: Offered::InterfaceOnly,
        enhance: Offered::Production,
        children: Offered::Absent,
    },
    roles: roles(CURATORS_AND_AGENTS, CURATORS_AND_AGENTS),
    read_rule: ReadRule::Always,
};

// ---- guides (production.md §3.2) ----

const REVISION: &[Field] = &[
    Field::opt("previous_guide_urn", Type::Urn(Some("urn:guide:"))),
    Field::opt("previous_guide_label", S2K),
    Field::opt("previous_publication_year", INT),
];

const IDENTIFIER: &[Field] = &[
    Field::req("scheme", S2K),
    Field::req("value", S2K),
    Field::opt("url", Type::Url),
];

const GUIDE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::opt("short_title", S2K),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::req("description", S2K),
    Field::req("url", Type::Url),
    Field::req("license", Type::Enum(LICENSES)),
    Field::req("content", PROSE),
    Field::opt("region", Type::Country),
    Field::opt("language", Type::Lang),
    Field::opt("issuing_authority", S2K),
    Field::opt("responsible_ministry", S2K),
    Field::opt("publication_year", Type::Year),
    Field::opt("publication_date", Type::DateTime),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("page_count", PAGE),
    Field::opt("document_type", S2K),
    Field::opt("legal_status", S2K),
    Field::opt("evidence_basis", S2K),
    Field::opt("graphical_model", S2K),
    Field::opt("topic", LINE),
    Field::opt("audience", LINE),
    Field::opt("target_audiences", S2K_LIST),
    Field::opt("tags", TAGS_25),
    Field::opt("notes", S15K),
    Field::opt("organization_urn", URN),
    Field::opt("revision", Type::Shape(REVISION)),
    Field::opt("identifiers", list(&Type::Shape(IDENTIFIER), 0, None)),
    Field::opt("artifacts", ARTIFACT_LIST),
];

const GUIDE_UPDATE: &[Field] = &updatable::<32>(GUIDE_CREATE, &["urn"]);

const REVIEWED_SERVICE_SET: &[Field] = &[
    STAMPS[0],
    Field::opt("verifier_user_id", LINE),
    Field::opt("version", Type::Any),
    STAMPS[1],
    STAMPS[2],
    STAMPS[3],
];

const EMBEDDED_ARTIFACTS: Field = Field::opt("artifacts", ARTIFACT_LIST);

/// Dietary guides (production.md §2.2, §3.2).
pub const GUIDES: Collection = Collection {
    path: "guides",
    singular: "Guide",
    plural: "Guides",
    identifier: IdentifierKind::Urn { urn_type: "guide" },
    parent: None,
    create: GUIDE_CREATE,
    update: GUIDE_UPDATE,
    service_set: REVIEWED_SERVICE_SET,
    derived: &[
        EMBEDDED_ARTIFACTS,
        Field::opt("guidelines", list(&Type::Uuid, 0, None)),
    ],
    defaults: &[
        ("status", "active"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    record_type: None,
    clearable: &["publication_year"],
    advised: &[],
    frozen_when: &[("status", "active"), ("visibility", "public")],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::InterfaceOnly,
        children: Offered::Absent,
    },
    roles: roles(CURATORS, ADMINS),
    read_rule: ReadRule::ActiveOrVerified,
};

// ---- guidelines (production.md §3.3) ----

const QUANTITY: &[Field] = &[
    Field::req(
        "operator",
        Type::Enum(&["lt", "lte", "eq", "gte", "gt", "approx"]),
    ),
    Field::req(
        "value",
        Type::Float {
            min: None,
            max: None,
        },
    ),
    Field::req("unit", S2K),
    Field::opt("period", S2K),
    Field::opt("raw_text", S2K),
];

const SOURCE_REF: &[Field] = &[
    Field::opt("artifact_id", Type::Uuid),
    Field::req("page_start", PAGE),
    Field::opt("page_end", PAGE),
    Field::opt("section_label", S2K),
];

/// A guideline's fields as one item of an import: the create schema without `guide_urn`.
pub const GUIDELINE_ITEM: &[Field] = &[
    Field::opt("sequence_no", PAGE),
    Field::opt("title", S2K),
    Field::req("rule_text", S15K),
    Field::opt("action_type", Type::Enum(ACTION_TYPE)),
    Field::opt("frequency", Type::Enum(FREQUENCY)),
    Field::opt("food_groups", list(&Type::Enum(FOOD_GROUPS), 0, None)),
    Field::opt(
        "target_populations",
        list(&Type::Enum(TARGET_POPULATIONS), 0, None),
    ),
    Field::opt("page_no", PAGE),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("notes", S15K),
    Field::opt("quantity", Type::Shape(QUANTITY)),
    Field::opt("source_refs", list(&Type::Shape(SOURCE_REF), 0, None)),
];

const GUIDELINE_CREATE: &[Field] = &with_first::<18>(
    Field::req("guide_urn", Type::Urn(Some("urn:guide:"))),
    GUIDELINE_ITEM,
);

const GUIDELINE_UPDATE: &[Field] = &updatable::<17>(GUIDELINE_ITEM, &[]);

/// The body of `POST guidelines/by-guide/{urn}/import`.
pub const GUIDELINE_IMPORT: &[Field] = &[Field::req(
    "guidelines",
    list(
        &Type::Shape(GUIDELINE_ITEM),
        1,
        Some(crate::limits::MAX_GUIDELINE_IMPORT as u32),
    ),
)];

/// Guidelines, the rules of a guide (production.md §2.3, §3.3).
pub const GUIDELINES: Collection = Collection {
    path: "guidelines",
    singular: "Guideline",
    plural: "Guidelines",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "guide_urn",
        collection: Some("guides"),
        by: Some("by-guide"),
    }),
    create: GUIDELINE_CREATE,
    update: GUIDELINE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("guide_region", Type::Country),
        Field::opt("verifier_user_id", LINE),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[],
    defaults: &[
        ("status", "draft"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    record_type: None,
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Production,
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::ActiveOrVerified,
};

// ---- textbooks (production.md §3.4) ----

/// One node of a structure tree (its `children` are nodes too; see `validate`).
pub const TREE_NODE: &[Field] = &[
    Field::req("id", S2K),
    Field::req("title", S2K),
    Field::opt("kind", Type::Enum(NODE_KIND)),
    Field::req("page_start", PAGE),
    Field::opt("page_end", PAGE),
    Field::opt("artifact_id", Type::Uuid),
];

const TEXTBOOK_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::opt("subtitle", S2K),
    Field::opt("status", LIFECYCLE_STATUS),
    Field::opt("review_status", Type::Enum(REVIEW_STATUS)),
    Field::opt("visibility", Type::Enum(VISIBILITY)),
    Field::opt("applicability_status", Type::Enum(APPLICABILITY_STATUS)),
    Field::opt("authors", list(&S2K, 0, Some(1000))),
    Field::opt("editors", list(&S2K, 0, Some(1000))),
    Field::opt("publisher", S2K),
    Field::opt("edition", S2K),
    Field::opt("publication_year", Type::Year),
    Field::opt("publication_date", Type::DateTime),
    Field::opt("page_count", PAGE),
    Field::opt("isbn10", S2K),
    Field::opt("isbn13", S2K),
    Field::opt("doi", S2K),
    Field::opt("language", Type::Lang),
    Field::opt("region", S2K),
    Field::opt("audience", S2K),
    Field::opt("description", S2K),
    Field::opt("keywords", list(&S2K, 0, Some(250))),
    Field::opt("topics", list(&S2K, 0, Some(100))),
    Field::opt("tags", TAGS_25),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("url", Type::Url),
    Field::opt("organization_urn", URN),
    Field::opt("applicability_start_date", DATE),
    Field::opt("applicability_end_date", DATE),
    Field::opt("structure_tree", Type::Tree),
    Field::opt("artifacts", ARTIFACT_LIST),
];

const TEXTBOOK_UPDATE: &[Field] = &updatable::<30>(TEXTBOOK_CREATE, &["urn"]);

/// Textbooks (production.md §2.4, §3.4).
pub const TEXTBOOKS: Collection = Collection {
    path: "textbooks",
    singular: "Textbook",
    plural: "Textbooks",
    identifier: IdentifierKind::Urn {
        urn_type: "textbook",
    },
    parent: None,
    create: TEXTBOOK_CREATE,
    update: TEXTBOOK_UPDATE,
    service_set: REVIEWED_SERVICE_SET,
    derived: &[EMBEDDED_ARTIFACTS],
    defaults: &[
        ("status", "draft"),
        ("review_status", "unreviewed"),
        ("visibility", "internal"),
        ("applicability_status", "unknown"),
    ],
    record_type: None,
    clearable: &["publication_year"],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::InterfaceOnly,
        children: Offered::Absent,
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::PublicAndActiveOrVerified,
};

// ---- textbook passages (production.md §3.5, §5.2) ----

const PASSAGE_CREATE: &[Field] = &[
    Field::req("textbook_urn", Type::Urn(Some("urn:textbook:"))),
    Field::req("artifact_id", Type::Uuid),
    Field::req("page_no", PAGE),
    Field::opt("sequence_no", PAGE),
    Field::req("text", S15K),
    Field::req("char_start", COUNT),
    Field::req("char_end", COUNT),
    Field::opt("extractor_name", S2K),
    Field::opt("extractor_run_id", S2K),
];

const PASSAGE_UPDATE: &[Field] = &updatable::<7>(PASSAGE_CREATE, &["textbook_urn", "artifact_id"]);

/// One passage of a bulk replacement.
pub const PASSAGE_ITEM: &[Field] = &[
    Field::req("page_no", PAGE),
    Field::req("text", S15K),
    Field::req("char_start", COUNT),
    Field::req("char_end", COUNT),
    Field::opt("sequence_no", PAGE),
];

/// The body of `POST textbook-passages/by-textbook/{urn}/replace`.
pub const PASSAGE_REPLACE: &[Field] = &[
    Field::req("artifact_id", Type::Uuid),
    Field::opt("page_count", PAGE),
    Field::opt("structure_tree", Type::Tree),
    Field::opt("extractor_name", S2K),
    Field::opt("extractor_run_id", S2K),
    Field::opt(
        "passages",
        list(
            &Type::Shape(PASSAGE_ITEM),
            0,
            Some(crate::limits::MAX_REPLACED_PASSAGES as u32),
        ),
    ),
];

/// Passages extracted from textbooks (production.md §2.5, §3.5).
pub const TEXTBOOK_PASSAGES: Collection = Collection {
    path: "textbook-passages",
    singular: "Passage",
    plural: "Passages",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "textbook_urn",
        collection: Some("textbooks"),
        by: Some("by-textbook"),
    }),
    create: PASSAGE_CREATE,
    update: PASSAGE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("structure_node_id", LINE),
        Field::opt("structure_path", S2K_LIST),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[],
    defaults: &[],
    record_type: None,
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Absent,
        search: Offered::Absent,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Production,
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::AsParent,
};

// ---- food composition tables (production.md §3.6) ----

const FCTABLE_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("database_name", S2K),
    Field::req("compiling_institution", S2K),
    Field::opt("description", S2K),
    Field::opt("region", S2K),
    Field::opt("language", Type::Lang),
    Field::opt("number_of_entries", COUNT),
    Field::opt(
        "completeness_percent",
        Type::Float {
            min: Some(0.0),
            max: Some(100.0),
        },
    ),
    Field::opt("completeness_description", S2K),
    Field::opt("min_nutrients_per_item", COUNT),
    Field::opt("max_nutrients_per_item", COUNT),
    Field::opt("license", Type::Enum(LICENSES)),
    Field::opt("url", Type::Url),
    Field::opt("nutrient_coverage", S2K_LIST),
    Field::opt("data_formats", S2K_LIST),
    Field::opt("measurement_units", S2K_LIST),
    Field::opt("classification_schemes", S2K_LIST),
    Field::opt("standardization_schemes", S2K_LIST),
    Field::opt("reference_portions", S2K_LIST),
    Field::opt("tasks_supported", S2K_LIST),
    // Production's create schema takes any number, but a record with more than 25 tags can no
    // longer be read there (its read model caps them): keep to 25.
    Field::opt("tags", TAGS_25),
];

const FCTABLE_UPDATE: &[Field] = &updatable::<21>(FCTABLE_CREATE, &["urn"]);

/// Food composition tables (production.md §2.6, §3.6).
pub const FCTABLES: Collection = Collection {
    path: "fctables",
    singular: "Food composition table",
    plural: "Food composition tables",
    identifier: IdentifierKind::Urn {
        urn_type: "fctable",
    },
    parent: None,
    create: FCTABLE_CREATE,
    update: FCTABLE_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("status", LIFECYCLE_STATUS),
        Field::opt("type", LINE),
        Field::opt("version", Type::Any),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[EMBEDDED_ARTIFACTS],
    defaults: &[("status", "active")],
    record_type: Some("food_composition_table"),
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::InterfaceOnly,
        children: Offered::Absent,
    },
    roles: roles(WriteRoles::AnySignedIn, WriteRoles::AnySignedIn),
    read_rule: ReadRule::Always,
};

// ---- artifacts (production.md §3.7, §5.4) ----

const ARTIFACT_CREATE: &[Field] = &[
    Field::req("parent_urn", URN),
    Field::req("title", S2K),
    Field::opt("description", S2K),
    Field::req("file_url", Type::Url),
    Field::req("file_type", Type::FileType),
    Field::req("file_size", COUNT),
    Field::opt("language", Type::Lang),
];

/// Production validates an artifact update (then discards it): `file_type` required.
const ARTIFACT_UPDATE: &[Field] = &[
    Field::req("file_type", Type::FileType),
    Field::opt("title", S2K),
    Field::opt("description", S2K),
];

/// Files attached to records (production.md §2.7, §3.7).
pub const ARTIFACTS: Collection = Collection {
    path: "artifacts",
    singular: "Artifact",
    plural: "Artifacts",
    identifier: IdentifierKind::Uuid,
    parent: Some(Parent {
        field: "parent_urn",
        collection: None,
        by: None,
    }),
    create: ARTIFACT_CREATE,
    update: ARTIFACT_UPDATE,
    service_set: &[
        STAMPS[0],
        Field::opt("file_s3_url", LINE),
        STAMPS[1],
        STAMPS[2],
        STAMPS[3],
    ],
    derived: &[],
    defaults: &[],
    record_type: None,
    clearable: &[],
    advised: &[],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Absent,
        search: Offered::Absent,
        search_get: Offered::Absent,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::InterfaceOnly,
    },
    roles: roles(CURATORS, CURATORS),
    read_rule: ReadRule::AsParent,
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

    /// Whether the console may offer a record's editing to a caller with `roles`.
    pub fn can_update(&self, roles: &[String]) -> bool {
        self.roles.update.allows(roles)
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
