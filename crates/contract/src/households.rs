//! The systemic service's household, member and profile schemas (production.md §4.2). Unlike the
//! data service, none of them refuses unknown keys (they are ignored), and none trims a string:
//! a name's spaces count towards its 255 characters and are kept (`schemas.py` has no
//! `str_strip_whitespace`; only `age_group` is stripped, by its own validator).

use crate::enums::{AGE_GROUP, DIETARY_GROUPS};
use crate::types::{list, Field, Type, RAW_LINE};

const NAME: Type = Type::Str {
    min: 1,
    max: Some(255),
    multiline: false,
    trimmed: false,
};
/// A member's picture: any string (production's web front end stores `avatar:N` or an older
/// `avatar:{json}`), but at most [`MAX_IMAGE_URL_CHARS`](crate::limits::MAX_IMAGE_URL_CHARS)
/// characters: `households/me` carries every member's, so it must be bounded.
const IMAGE_URL: Type = Type::Str {
    min: 0,
    max: Some(crate::limits::MAX_IMAGE_URL_CHARS),
    multiline: false,
    trimmed: false,
};
const REGION: Type = Type::Str {
    min: 0,
    max: Some(100),
    multiline: false,
    trimmed: false,
};

/// `POST members/{id}/profile` (an upsert; production ignores `properties` here).
pub const PROFILE_CREATE: &[Field] = &[
    Field::opt("dietary_groups", list(&Type::Enum(DIETARY_GROUPS), 0, None)),
    Field::opt("allergies", list(&RAW_LINE, 0, None)),
    Field::opt("nutritional_preferences", Type::Object),
    Field::opt("properties", Type::Object),
];

/// `PATCH members/{id}/profile`: each field sent replaces the stored one.
pub const PROFILE_UPDATE: &[Field] = PROFILE_CREATE;

/// A member inside `POST households` (no `household_id`).
pub const MEMBER_IN_HOUSEHOLD: &[Field] = &[
    Field::req("name", NAME),
    Field::req("age_group", Type::EnumFolded(AGE_GROUP)),
    Field::opt("image_url", IMAGE_URL),
    Field::opt("profile", Type::Loose(PROFILE_CREATE)),
];

/// `POST members`.
pub const MEMBER_CREATE: &[Field] = &[
    Field::req("household_id", RAW_LINE),
    Field::req("name", NAME),
    Field::req("age_group", Type::EnumFolded(AGE_GROUP)),
    Field::opt("image_url", IMAGE_URL),
    Field::opt("profile", Type::Loose(PROFILE_CREATE)),
];

/// `PATCH members/{id}`: `age_group` exact here; `image_url: null` clears it.
pub const MEMBER_UPDATE: &[Field] = &[
    Field::opt("name", NAME),
    Field::opt("age_group", Type::Enum(AGE_GROUP)),
    Field::opt("image_url", IMAGE_URL),
    Field::opt("profile", Type::Loose(PROFILE_UPDATE)),
];

/// `POST households`.
pub const HOUSEHOLD_CREATE: &[Field] = &[
    Field::req("name", NAME),
    Field::opt("region", REGION),
    Field::opt("metadata", Type::Object),
    Field::opt(
        "members",
        list(
            &Type::Loose(MEMBER_IN_HOUSEHOLD),
            0,
            Some(crate::limits::MAX_MEMBERS_ON_CREATE as u32),
        ),
    ),
];

/// `PATCH households/{id}`: `region: null` clears it; a null name or metadata is ignored.
pub const HOUSEHOLD_UPDATE: &[Field] = &[
    Field::opt("name", NAME),
    Field::opt("region", REGION),
    Field::opt("metadata", Type::Object),
];

/// Update fields whose `null` clears the stored value (every other `null` is ignored).
pub const CLEARABLE: &[&str] = &["region", "image_url"];

/// How an administrator's household listing may be ordered (`sort`; a reference-service
/// extension: production's list takes only `limit` and `offset`, production.md §4.1).
pub const HOUSEHOLD_SORTS: [&str; 3] = ["name", "member_count", "created_at"];
/// The directions of `order`.
pub const SORT_ORDERS: [&str; 2] = ["asc", "desc"];
/// Characters of the listing's `q` (matched against names and owners).
pub const MAX_HOUSEHOLD_QUERY_CHARS: usize = 200;
/// Characters of the listing's `region` filter (a region holds at most 100).
pub const MAX_HOUSEHOLD_REGION_CHARS: usize = 100;
/// The query parameters a listing is searched with; a service that does not search ignores them.
pub const HOUSEHOLD_SEARCH_PARAMS: [&str; 4] = ["q", "region", "sort", "order"];
