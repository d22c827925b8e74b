//! Share links (production.md §10.4): an owner publishes a scrubbed snapshot of a meal plan
//! behind an unguessable token that anyone may read without an account.

use crate::types::{Field, Type, LINE};

/// The kinds a share may be of (production's `sharing.KINDS`).
pub const SHARE_KINDS: [&str; 3] = ["meal_plan", "saved_meal_plan", "weekly_meal_plan"];
/// A day's meal plan (`POST members/{id}/meal-plans`).
pub const MEAL_PLAN: &str = "meal_plan";
/// A member's saved meal plan.
pub const SAVED_MEAL_PLAN: &str = "saved_meal_plan";
/// A member's current weekly plan (FoodChat's).
pub const WEEKLY_MEAL_PLAN: &str = "weekly_meal_plan";

/// Characters of the shared plan's id and of `member_id`.
pub const MAX_SHARE_ID_CHARS: u32 = 100;
/// Characters of a share's title (longer stored titles are cut to this).
pub const MAX_SHARE_TITLE_CHARS: u32 = 200;
/// Days a share may live (`expires_in_days`; none = until revoked).
pub const MAX_SHARE_DAYS: i64 = 365;
/// Characters of a token the public read looks up; longer ones are "not available" unread.
pub const MAX_SHARE_TOKEN_CHARS: usize = 64;
/// Characters of a token the service mints (32 random bytes, URL-safe base64).
pub const SHARE_TOKEN_CHARS: usize = 43;
/// Links `GET shares` lists when no `limit` is sent.
pub const DEFAULT_SHARE_LIST: i64 = 50;
/// Most links `GET shares` lists (a larger `limit` is clamped to it, a smaller to 1).
pub const MAX_SHARE_LIST: i64 = 200;
/// Links one account may hold (the reference service's cap; production has none). At the cap
/// the oldest revoked or expired link makes room; when all are live, a new one is refused.
pub const MAX_SHARES_PER_ACCOUNT: usize = 1000;
/// Bytes of JSON a share's snapshot may take (the reference service's cap).
pub const MAX_SHARE_PAYLOAD_BYTES: usize = 1 << 20;

/// What a snapshot may say about one dish: everything here describes the food.
pub const DISH_FIELDS: [&str; 7] = [
    "recipe_id",
    "title",
    "ingredients",
    "directions",
    "role",
    "nutrition",
    "image_url",
];
/// Where a plan's meals are, in the order they are eaten.
pub const MEAL_SLOTS: [&str; 3] = ["breakfast", "lunch", "dinner"];

/// Headers the public read carries, on a hit and a miss alike: kept out of search engines, the
/// token never sent on as a referrer, nothing cached.
pub const PUBLIC_HEADERS: [(&str, &str); 3] = [
    ("x-robots-tag", "noindex, nofollow, noarchive"),
    ("referrer-policy", "no-referrer"),
    ("cache-control", "private, no-store"),
];

/// The one answer of the public read for a token that is unknown, revoked, expired or too long.
pub const NOT_AVAILABLE: &str = "This link is not available";

/// `POST shares`: `{kind, id, member_id?, title?, expires_in_days?}`.
pub const SHARE_CREATE: &[Field] = &[
    Field::req("kind", LINE),
    Field::req(
        "id",
        Type::Str {
            min: 0,
            max: Some(MAX_SHARE_ID_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "member_id",
        Type::Str {
            min: 0,
            max: Some(MAX_SHARE_ID_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "title",
        Type::Str {
            min: 0,
            max: Some(MAX_SHARE_TITLE_CHARS),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "expires_in_days",
        Type::Int {
            min: Some(1),
            max: Some(MAX_SHARE_DAYS),
        },
    ),
];

/// `POST shares/{token}/email`: `{to?, note?}`.
pub const SHARE_EMAIL: &[Field] = &[
    Field::opt(
        "to",
        Type::Str {
            min: 0,
            max: Some(254),
            multiline: false,
            trimmed: true,
        },
    ),
    Field::opt(
        "note",
        Type::Str {
            min: 0,
            max: Some(500),
            multiline: true,
            trimmed: true,
        },
    ),
];
