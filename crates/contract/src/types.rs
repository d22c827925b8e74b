//! The value types of the production schemas (production.md §3, type legend), as data.
//!
//! A [`Field`] is a wire name, a [`Type`] and whether a create must carry it. The collection
//! descriptions are lists of fields; [`crate::validate`] checks a body against such a list the
//! way the production service's pydantic models do, and the console builds its editors from the
//! same lists.

/// Every license value the production schemas accept (production.md §3, `License`).
pub const LICENSES: &[&str] = &[
    "MIT",
    "Apache-2.0",
    "GPL-3.0",
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "Proprietary",
    "CCBYNCSA",
    "CCBYNC",
    "CCBYNCND",
    "CCBYSA",
    "CCBY",
    "CC0",
    "mit",
    "gpl",
    "publisher-specific-oa",
    "public-domain",
    "pd",
    "unspecified-oa",
    "other-oa",
    "implied-oa",
    "publisher-specific, author manuscript",
    "elsevier-specific: oa user license",
];

/// The type of a field's value. `null` is accepted for every field that is not required.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Type {
    /// A string within its lengths; `multiline` marks prose.
    Str {
        /// Fewest characters (after trimming, where `trimmed`).
        min: u32,
        /// Most characters (after trimming, where `trimmed`), `None` for no limit.
        max: Option<u32>,
        /// Whether people write paragraphs in it (a text area rather than a line).
        multiline: bool,
        /// Whether white space at either end is dropped before the lengths are checked and the
        /// value stored: the data service's models strip (`str_strip_whitespace`, production.md
        /// §1.5); the systemic service's household models do not, so there `" a "` is three
        /// characters and kept as sent.
        trimmed: bool,
    },
    /// `^[a-z0-9]+(?:[-_][a-z0-9]+)*$`, 1–100 characters.
    Slug,
    /// `^urn:[a-z0-9][a-z0-9\-._:/]{2,}$`, 5–255 characters, optionally of one type (`urn:guide:`).
    Urn(Option<&'static str>),
    /// A canonical lower-case UUID.
    Uuid,
    /// ISO 639-1, `^[a-z]{2}$`.
    Lang,
    /// ISO 3166-1 alpha-2, `^[A-Z]{2}$`.
    Country,
    /// An absolute http(s) URL.
    Url,
    /// An e-mail address (pydantic's `EmailStr`): `local@domain`, the domain lower-cased.
    Email,
    /// `YYYY-MM-DD`.
    Date,
    /// ISO-8601 date and time (a date alone is accepted).
    DateTime,
    /// One of the values.
    Enum(&'static [&'static str]),
    /// One of the values after trimming and lower-casing (a member's `age_group` on create).
    EnumFolded(&'static [&'static str]),
    /// An integer within the bounds.
    Int {
        /// Smallest value.
        min: Option<i64>,
        /// Largest value.
        max: Option<i64>,
    },
    /// A number within the bounds.
    Float {
        /// Smallest value.
        min: Option<f64>,
        /// Largest value.
        max: Option<f64>,
    },
    /// true or false.
    Bool,
    /// An article's `publication_year`: a year, a digit string or an ISO date, stored as
    /// `YYYY-MM-DD` (a year alone becomes `YYYY-01-01`).
    YearDate,
    /// A guide's or textbook's `publication_year`: an integer or a digit string (`""` is null).
    Year,
    /// A file type: a MIME type becomes an extension, a leading `.` goes, lower-cased, not empty.
    FileType,
    /// Any JSON object.
    Object,
    /// Any JSON value.
    Any,
    /// A list of values of `item`.
    List {
        /// The type of each element.
        item: &'static Type,
        /// Fewest elements.
        min: u32,
        /// Most elements, `None` for no limit (the reference service still caps, see `limits`).
        max: Option<u32>,
        /// Whether elements must differ ignoring case (production's tag rule).
        unique: bool,
    },
    /// An object with exactly these fields (any other key is refused).
    Shape(&'static [Field]),
    /// An object with these fields; other keys are dropped (the systemic service's models).
    Loose(&'static [Field]),
    /// A textbook structure tree `{roots: [node]}` (nodes: [`crate::collections::TREE_NODE`]).
    Tree,
}

/// One field of a schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// The wire name.
    pub name: &'static str,
    /// Its type.
    pub ty: Type,
    /// Whether the body must carry it (non-null).
    pub required: bool,
}

impl Field {
    /// An optional field.
    pub const fn opt(name: &'static str, ty: Type) -> Field {
        Field {
            name,
            ty,
            required: false,
        }
    }

    /// A required field.
    pub const fn req(name: &'static str, ty: Type) -> Field {
        Field {
            name,
            ty,
            required: true,
        }
    }

    /// The same field, optional.
    pub const fn optional(self) -> Field {
        Field {
            required: false,
            ..self
        }
    }
}

/// A trimmed string of 1–2000 characters (production's `S2k`).
pub const S2K: Type = Type::Str {
    min: 1,
    max: Some(2000),
    multiline: false,
    trimmed: true,
};
/// A trimmed string of 1–15000 characters (production's `S15k`), written as prose.
pub const S15K: Type = Type::Str {
    min: 1,
    max: Some(15000),
    multiline: true,
    trimmed: true,
};
/// A string of any length, possibly empty, written as prose (an article's `content`).
pub const PROSE: Type = Type::Str {
    min: 0,
    max: None,
    multiline: true,
    trimmed: true,
};
/// A one-line string of any length (a guide's `topic`).
pub const LINE: Type = Type::Str {
    min: 0,
    max: None,
    multiline: false,
    trimmed: true,
};
/// A one-line string of any length, kept as sent (the systemic service's unconstrained `str`).
pub const RAW_LINE: Type = Type::Str {
    min: 0,
    max: None,
    multiline: false,
    trimmed: false,
};
/// A list of `S2k` of any length.
pub const S2K_LIST: Type = list(&S2K, 0, None);
/// The tag rule of guides and textbooks: 0–25 `S2k`, unique ignoring case.
pub const TAGS_25: Type = Type::List {
    item: &S2K,
    min: 0,
    max: Some(25),
    unique: true,
};

/// A list type of `item` with `min..=max` elements.
pub const fn list(item: &'static Type, min: u32, max: Option<u32>) -> Type {
    Type::List {
        item,
        min,
        max,
        unique: false,
    }
}

/// An integer of at least `min`.
pub const fn int_from(min: i64) -> Type {
    Type::Int {
        min: Some(min),
        max: None,
    }
}

/// Any integer.
pub const INT: Type = Type::Int {
    min: None,
    max: None,
};

impl Type {
    /// Whether a value of this type is one scalar (sortable, facetable, one cell of a table).
    pub fn is_scalar(&self) -> bool {
        !matches!(
            self,
            Type::List { .. }
                | Type::Shape(_)
                | Type::Loose(_)
                | Type::Tree
                | Type::Object
                | Type::Any
        )
    }

    /// The values of an enumeration, or of a list of an enumeration.
    pub fn choices(&self) -> Option<&'static [&'static str]> {
        match self {
            Type::Enum(values) | Type::EnumFolded(values) => Some(values),
            Type::List { item, .. } => item.choices(),
            _ => None,
        }
    }
}

/// Finds a field by name.
pub fn find<'a>(fields: &'a [Field], name: &str) -> Option<&'a Field> {
    fields.iter().find(|f| f.name == name)
}
