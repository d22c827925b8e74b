//! The enumerations of wire-notes, as slices the console turns into selects and chips.

/// Record lifecycle status.
pub const STATUS: &[&str] = &["active", "draft", "archived", "deleted", "deprecated"];
/// Editorial review state of guides, guidelines and textbooks.
pub const REVIEW_STATUS: &[&str] = &[
    "unreviewed",
    "pending_review",
    "in_review",
    "verified",
    "changes_requested",
    "rejected",
];
/// Who may see a record.
pub const VISIBILITY: &[&str] = &["internal", "public"];
/// Whether a guide or guideline still applies.
pub const APPLICABILITY_STATUS: &[&str] =
    &["current", "expired", "superseded", "withdrawn", "unknown"];
/// Age group of a household member.
pub const AGE_GROUP: &[&str] = &[
    "baby",
    "child",
    "teen",
    "young_adult",
    "adult",
    "middle_aged",
    "senior",
];
/// Dietary groups of a member profile.
pub const DIETARY_GROUPS: &[&str] = &[
    "omnivore",
    "vegetarian",
    "lacto_vegetarian",
    "ovo_vegetarian",
    "lacto_ovo_vegetarian",
    "pescatarian",
    "vegan",
    "raw_vegan",
    "plant_based",
    "flexitarian",
    "halal",
    "kosher",
    "jain",
    "buddhist_vegetarian",
    "gluten_free",
    "nut_free",
    "peanut_free",
    "dairy_free",
    "egg_free",
    "soy_free",
    "shellfish_free",
    "fish_free",
    "sesame_free",
    "low_carb",
    "low_fat",
    "low_sodium",
    "sugar_free",
    "no_added_sugar",
    "high_protein",
    "high_fiber",
    "low_cholesterol",
    "low_calorie",
    "keto",
    "paleo",
    "whole30",
    "mediterranean",
    "diabetic_friendly",
];
/// What a guideline asks for.
pub const ACTION_TYPE: &[&str] = &[
    "eat", "drink", "use", "do", "avoid", "prepare", "limit", "choose", "increase", "reduce",
];
/// How often a guideline applies.
pub const FREQUENCY: &[&str] = &["per_meal", "daily", "weekly", "monthly", "occasional"];
/// Populations a guideline targets.
pub const TARGET_POPULATIONS: &[&str] = &[
    "general_population",
    "infants",
    "under_5_years",
    "ages_5_to_18",
    "adults",
    "elderly",
    "pregnant_people",
    "lactating_people",
    "other",
];
/// Food groups a guideline concerns.
pub const FOOD_GROUPS: &[&str] = &[
    "none",
    "fruits",
    "vegetables",
    "grains",
    "dairy",
    "protein_foods",
    "fats_and_oils",
    "beverages",
    "salt",
    "sugars_and_sweets",
    "mixed",
    "other",
];
/// Kinds of structure-tree nodes of a textbook.
pub const NODE_KIND: &[&str] = &[
    "part",
    "chapter",
    "section",
    "subsection",
    "appendix",
    "other",
];
/// Life stages a guideline applies to (production.md §10.5).
pub const LIFE_STAGE: &[&str] = &[
    "pregnancy",
    "lactation",
    "infancy",
    "early_childhood",
    "school_age",
    "adolescence",
    "adulthood",
    "older_adulthood",
];
/// Settings where a guideline applies (production.md §10.5).
pub const SETTING: &[&str] = &[
    "school",
    "home",
    "clinical",
    "community",
    "workplace",
    "retail",
    "general",
];
/// The nature of a guideline's recommendation (production.md §10.5).
pub const GUIDELINE_TYPE: &[&str] = &[
    "food_based",
    "nutrient_based",
    "behavioral",
    "activity",
    "other",
];
/// Who a guideline addresses (production.md §10.5; the wire name is the singular `audience`).
pub const AUDIENCE: &[&str] = &[
    "caregiver",
    "individual",
    "health_professional",
    "policy_maker",
    "educator",
];
/// Where a recipe collection comes from (production.md §2.9).
pub const SOURCE_TYPE: &[&str] = &[
    "dataset",
    "web_portal",
    "manual_curation",
    "partner",
    "user_generated",
];
/// How complete a recipe collection's data is (wisefood-data-api src/schemas/schemas.py,
/// `RCollectionDataCompleteness`).
pub const DATA_COMPLETENESS: &[&str] = &["full", "partial", "minimal"];
