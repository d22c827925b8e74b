//! The keys production's web front end (wisefood-ui), FoodChat, FoodScholar and the meal planner
//! keep inside a profile's free-form objects (production.md §10.1). The service stores both
//! objects as opaque JSON; these names are the contract between the programs that read them, so
//! they are written down once, here.

/// `nutritional_preferences.gender`: one of [`GENDERS`]; absent means "Not specified" (the key
/// is removed when cleared, never stored empty).
pub const GENDER: &str = "gender";
/// `nutritional_preferences.food_likes` and `food_dislikes`: lists of foods.
pub const FOOD_LIKES: &str = "food_likes";
pub const FOOD_DISLIKES: &str = "food_dislikes";
/// `nutritional_preferences` targets, numbers (declared by production's front end; nothing
/// there writes them).
pub const TARGETS: [&str; 4] = ["calories", "protein", "carbs", "fat"];
/// `properties.dietary_goals`: a list of `{slug, label}` ([`GOALS`]; readers take a bare string
/// item as its slug).
pub const DIETARY_GOALS: &str = "dietary_goals";
/// `properties.memory_log`: what FoodChat and FoodScholar learned (entries with [`entry`]'s
/// fields).
pub const MEMORY_LOG: &str = "memory_log";
/// `properties.standing_seeds`: a list of `{name}`, dishes worked into weekly plans.
pub const STANDING_SEEDS: &str = "standing_seeds";

/// The names Larder wrote before production's were known (all under `properties`): a profile
/// that still has them is offered a move to production's.
pub mod earlier {
    /// Was `properties.gender`; now `nutritional_preferences.gender`.
    pub const GENDER: &str = "gender";
    /// Was `properties.goals` (a list of words); now `properties.dietary_goals`.
    pub const GOALS: &str = "goals";
    /// Was `properties.memories` (each `{text, source}`); now `properties.memory_log`.
    pub const MEMORIES: &str = "memories";
    /// The kind a moved memory gets in `memory_log`: production's front end lists a kind it
    /// does not apply to any field as a log line only.
    pub const MEMORY_KIND: &str = "note";
}

/// The gender values with production's English labels.
pub const GENDERS: [(&str, &str); 4] = [
    ("female", "Female"),
    ("male", "Male"),
    ("other", "Other"),
    ("prefer_not_to_say", "Prefer not to say"),
];

/// The planner's twelve goal slugs, in the order production lists them, with its English labels.
pub const GOALS: [(&str, &str); 12] = [
    ("reduce_fat", "Less saturated fat"),
    ("reduce_sugar", "Less sugar"),
    ("reduce_sodium", "Less salt"),
    ("reduce_calories", "Fewer calories"),
    ("reduce_carbs", "Fewer carbs"),
    ("increase_protein", "More protein"),
    ("increase_fiber", "More fiber"),
    ("increase_hydration", "More hydration"),
    ("lose_weight", "Lose weight"),
    ("gain_weight", "Gain weight"),
    ("gain_muscle", "Build muscle"),
    ("maintain_weight", "Maintain weight"),
];

/// The English label of goal `slug`, if it is one of the twelve.
pub fn goal_label(slug: &str) -> Option<&'static str> {
    GOALS.iter().find(|(s, _)| *s == slug).map(|(_, l)| *l)
}

/// A slug as words with a capital, as production shows a goal it has no label for
/// (`reduce_fat` gives "Reduce fat").
pub fn humanised(slug: &str) -> String {
    crate::text::capitalized(&slug.replace('_', " "))
}

/// The fields of a `memory_log` entry.
pub mod entry {
    /// What kind of thing was learned ([`super::MemoryKind`]); required.
    pub const KIND: &str = "kind";
    /// A food, goal slug, allergen, seed name or dietary group; required.
    pub const VALUE: &str = "value";
    /// `foodchat` or `foodscholar`; absent or unknown means FoodChat.
    pub const SOURCE: &str = "source";
    pub const SESSION_ID: &str = "session_id";
    /// When it was learned: with `kind` and `value`, what makes two entries the same.
    pub const RECORDED_AT: &str = "recorded_at";
    /// FoodChat: the member's phrase the extractor keyed on.
    pub const EVIDENCE: &str = "evidence";
    /// FoodScholar: the question that produced a goal.
    pub const SOURCE_TEXT: &str = "source_text";
    /// Stamped by a correction: when, and by whom (always `"member"`).
    pub const EDITED_AT: &str = "edited_at";
    pub const EDITED_BY: &str = "edited_by";
    /// The one value of `edited_by`.
    pub const BY_MEMBER: &str = "member";
}

/// The two programs that write memories, with the names people know them by.
pub const SOURCES: [(&str, &str); 2] = [("foodchat", "FoodChat"), ("foodscholar", "FoodScholar")];

/// The app an entry's `source` names: FoodScholar for `foodscholar` (any case), FoodChat for
/// anything else, as production's front end reads it.
pub fn source_app(source: Option<&str>) -> &'static str {
    let source = crate::text::lowercase(source.unwrap_or("foodchat"));
    SOURCES
        .iter()
        .find(|(s, _)| *s == source)
        .map_or("FoodChat", |(_, name)| name)
}

/// The profile field a memory of some kind is applied to, and how it may be corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryKind {
    /// `like`, `cuisine`: `nutritional_preferences.food_likes`; free text, a like can become a
    /// dislike.
    Like,
    Cuisine,
    /// `dislike`: `nutritional_preferences.food_dislikes`; free text, can become a like.
    Dislike,
    /// `standing_seed`: `properties.standing_seeds[].name`; free text.
    StandingSeed,
    /// `goal` (FoodScholar), `dietary_goal` (FoodChat): `properties.dietary_goals[].slug`; one of
    /// the twelve slugs.
    Goal,
    /// `allergy_hint`: `allergies`. Not corrected here (a safety filter with its own control),
    /// but forgetting it removes the allergy.
    AllergyHint,
    /// `dietary_pattern`: `dietary_groups` (compared lower-case). Not corrected.
    DietaryPattern,
    /// `constraint` and any other kind: the log only.
    LogOnly,
}

impl MemoryKind {
    /// The kind stored as `kind`.
    pub fn of(kind: &str) -> MemoryKind {
        match kind {
            "like" => MemoryKind::Like,
            "cuisine" => MemoryKind::Cuisine,
            "dislike" => MemoryKind::Dislike,
            "standing_seed" => MemoryKind::StandingSeed,
            "goal" | "dietary_goal" => MemoryKind::Goal,
            "allergy_hint" => MemoryKind::AllergyHint,
            "dietary_pattern" => MemoryKind::DietaryPattern,
            _ => MemoryKind::LogOnly,
        }
    }

    /// How a correction edits the value.
    pub fn editor(self) -> Editor {
        match self {
            MemoryKind::Like | MemoryKind::Dislike => Editor::TextOrFlip,
            MemoryKind::Cuisine | MemoryKind::StandingSeed => Editor::Text,
            MemoryKind::Goal => Editor::GoalSlug,
            MemoryKind::AllergyHint | MemoryKind::DietaryPattern | MemoryKind::LogOnly => {
                Editor::None
            }
        }
    }
}

/// How a memory may be corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Editor {
    /// Free text.
    Text,
    /// Free text, and `like` and `dislike` may be swapped.
    TextOrFlip,
    /// One of the twelve goal slugs.
    GoalSlug,
    /// Not corrected (it can still be forgotten).
    None,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_sources_and_goals_read_as_production_reads_them() {
        assert_eq!(MemoryKind::of("dietary_goal"), MemoryKind::Goal);
        assert_eq!(MemoryKind::of("constraint"), MemoryKind::LogOnly);
        assert_eq!(MemoryKind::of("allergy_hint").editor(), Editor::None);
        assert_eq!(source_app(None), "FoodChat");
        assert_eq!(source_app(Some("FoodScholar")), "FoodScholar");
        assert_eq!(source_app(Some("somewhere")), "FoodChat");
        assert_eq!(goal_label("gain_muscle"), Some("Build muscle"));
        assert_eq!(goal_label("sleep_better"), None);
        assert_eq!(humanised("reduce_fat"), "Reduce fat");
    }
}
