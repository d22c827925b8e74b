//! The systemic service's household, member and profile schemas (production.md §4.2). Unlike the
//! data service, none of them refuses unknown keys: they are ignored.

use crate::enums::{AGE_GROUP, DIETARY_GROUPS};
use crate::types::{list, Field, Type, LINE};

const NAME: Type = Type::Str {
    min: 1,
    max: Some(255),
    multiline: false,
};
/// A member's picture: any string (production's web front end stores `avatar:N` or an older
/// `avatar:{json}`), but at most [`MAX_IMAGE_URL_CHARS`](crate::limits::MAX_IMAGE_URL_CHARS)
/// characters: `households/me` carries every member's, so it must be bounded.
const IMAGE_URL: Type = Type::Str {
    min: 0,
    max: Some(crate::limits::MAX_IMAGE_URL_CHARS),
    multiline: false,
};
const REGION: Type = Type::Str {
    min: 0,
    max: Some(100),
    multiline: false,
};

/// `POST members/{id}/profile` (an upsert; production ignores `properties` here).
pub const PROFILE_CREATE: &[Field] = &[
    Field::opt("dietary_groups", list(&Type::Enum(DIETARY_GROUPS), 0, None)),
    Field::opt("allergies", list(&LINE, 0, None)),
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
    Field::req("household_id", LINE),
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
