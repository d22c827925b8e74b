//! What production keeps about each household member beside the profile (production.md §10.3):
//! meal plans by day, and the member's library (saved items, favourite recipes, adapted recipes,
//! saved meal plans). The routes, the kinds and the reference service's limits, written down once
//! for the client, the service and the console.

/// `members/{id}/meal-plans`: GET one plan for a day (`?date=YYYY-MM-DD`), POST, and
/// `DELETE .../{meal_plan_id}?revoke_for_all_members=`.
pub const MEAL_PLANS: &str = "meal-plans";

/// The key of a member's meal plans in the household file, and its CSV table's name.
pub const MEAL_PLANS_FILE_KEY: &str = "meal_plans";

/// The three meals of a plan, in the order of a day.
pub const MEALS: [&str; 3] = ["breakfast", "lunch", "dinner"];

/// The four texts of a meal production requires (each non-empty; other keys are kept).
pub const MEAL_TEXTS: [&str; 4] = ["recipe_id", "title", "ingredients", "directions"];

/// One kind of thing in a member's library, as production routes and answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibraryKind {
    /// The route under `members/{id}/`.
    pub path: &'static str,
    /// The key of the list in the answer, when the answer is an object (`None`: a bare list).
    pub list_key: Option<&'static str>,
    /// The key in the household file (`crate`'s export) and its CSV table's name.
    pub file_key: &'static str,
}

/// `members/{id}/saved-items[?item_type=]`; `PUT`/`DELETE .../{item_type}/{item_ref}`.
pub const SAVED_ITEMS: LibraryKind = LibraryKind {
    path: "saved-items",
    list_key: Some("saved_items"),
    file_key: "saved_items",
};

/// `members/{id}/favorites`; `PUT`/`DELETE .../{recipe_id}` (production's recipe rows of the
/// saved items, in their older shape).
pub const FAVORITES: LibraryKind = LibraryKind {
    path: "favorites",
    list_key: None,
    file_key: "favorites",
};

/// `members/{id}/adapted-recipes`; `GET`/`PUT`/`DELETE .../{recipe_id}`.
pub const ADAPTED_RECIPES: LibraryKind = LibraryKind {
    path: "adapted-recipes",
    list_key: None,
    file_key: "adapted_recipes",
};

/// `members/{id}/saved-meal-plans`; `GET`/`PATCH`/`DELETE .../{saved_meal_plan_id}`.
pub const SAVED_MEAL_PLANS: LibraryKind = LibraryKind {
    path: "saved-meal-plans",
    list_key: Some("saved_meal_plans"),
    file_key: "saved_meal_plans",
};

/// Every kind of the library, in the order the member's page lists them.
pub const LIBRARY: [LibraryKind; 4] = [SAVED_ITEMS, FAVORITES, ADAPTED_RECIPES, SAVED_MEAL_PLANS];

/// The `item_type`s of a saved item (production's `SavedItemType`).
pub const SAVED_ITEM_TYPES: [&str; 4] = ["recipe", "article", "guide", "textbook"];

/// The most characters of a saved item's `item_ref` (production's answer model).
pub const MAX_ITEM_REF_CHARS: usize = 512;
/// The most characters of a recipe id in a path (favourites, adapted recipes; production's).
pub const MAX_RECIPE_ID_CHARS: usize = 128;
/// The most characters of an adapted recipe's `title` (production's).
pub const MAX_ADAPTED_TITLE_CHARS: usize = 512;
/// The most characters of a saved meal plan's `name` (production's).
pub const MAX_SAVED_PLAN_NAME_CHARS: usize = 255;

/// Bytes of JSON of one meal plan's meals and reasoning, as stored (the reference service's
/// cap; production has none): a plan of three recipes with their ingredients and directions
/// is a few kilobytes.
pub const MAX_MEAL_PLAN_BYTES: usize = 32 << 10;
/// Days with a meal plan one member may hold (the reference service's cap): more than two years.
pub const MAX_MEAL_PLANS_PER_MEMBER: u64 = 1000;
/// Saved items (favourites included) one member may hold (the reference service's cap).
pub const MAX_SAVED_ITEMS_PER_MEMBER: u64 = 1000;
/// Adapted recipes one member may hold (the reference service's cap).
pub const MAX_ADAPTED_RECIPES_PER_MEMBER: u64 = 100;
/// Bytes of JSON of one adapted recipe's `payload` (the reference service's cap).
pub const MAX_ADAPTED_PAYLOAD_BYTES: usize = 32 << 10;
/// Saved meal plans one member may hold (the reference service's cap).
pub const MAX_SAVED_MEAL_PLANS_PER_MEMBER: u64 = 100;
