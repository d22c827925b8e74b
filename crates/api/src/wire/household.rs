//! Households, their members and the members' profiles (interface.md 2.9, wire-notes' shapes).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::or_default;

/// A household: `{id, name, owner_id, region, member_count, created_at, updated_at, metadata, members}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Household {
    /// The household id.
    #[serde(deserialize_with = "or_default")]
    pub id: String,
    /// Name.
    #[serde(deserialize_with = "or_default")]
    pub name: String,
    /// The user who owns it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_id: Option<String>,
    /// Region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// How many members it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_count: Option<i64>,
    /// When it was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When it last changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Free-form data.
    #[serde(deserialize_with = "or_default")]
    pub metadata: Map<String, Value>,
    /// The members, when the answer embeds them.
    #[serde(deserialize_with = "or_default")]
    pub members: Vec<Member>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A member of a household: `{id, household_id, name, age_group, image_url, joined_at, profile?}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Member {
    /// The member id.
    #[serde(deserialize_with = "or_default")]
    pub id: String,
    /// The household the member belongs to.
    #[serde(deserialize_with = "or_default")]
    pub household_id: String,
    /// Name.
    #[serde(deserialize_with = "or_default")]
    pub name: String,
    /// Age group (`baby`, `child`, ..., `senior`).
    #[serde(deserialize_with = "or_default")]
    pub age_group: String,
    /// Picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// When the member joined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined_at: Option<String>,
    /// The profile, when one exists and the answer embeds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A member's dietary profile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Profile {
    /// The profile id.
    #[serde(deserialize_with = "or_default")]
    pub id: String,
    /// The member it belongs to.
    #[serde(deserialize_with = "or_default")]
    pub household_member_id: String,
    /// Nutritional preferences, free-form.
    #[serde(deserialize_with = "or_default")]
    pub nutritional_preferences: Map<String, Value>,
    /// Dietary groups (`vegan`, `halal`, ...).
    #[serde(deserialize_with = "or_default")]
    pub dietary_groups: Vec<String>,
    /// Allergies, kept as sent.
    #[serde(deserialize_with = "or_default")]
    pub allergies: Vec<Value>,
    /// Further properties, free-form.
    #[serde(deserialize_with = "or_default")]
    pub properties: Map<String, Value>,
    /// When it was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When it last changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// Fields this client does not know, sent back untouched.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The body of `POST households`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewHousehold {
    /// Name.
    pub name: String,
    /// Region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Free-form data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Members created with the household.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<NewMember>,
}

/// A member to create: `{name, age_group, image_url?}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewMember {
    /// Name.
    pub name: String,
    /// Age group.
    pub age_group: String,
    /// Picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

impl NewMember {
    /// A member with a name and an age group.
    pub fn new(name: impl Into<String>, age_group: impl Into<String>) -> NewMember {
        NewMember {
            name: name.into(),
            age_group: age_group.into(),
            image_url: None,
        }
    }
}

/// The body of `PATCH households/{id}`: only the fields that are `Some` are sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HouseholdChanges {
    /// New name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New region; `Some(None)` clears it (sent as `null`, which the systemic service reads as
    /// "clear").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<Option<String>>,
    /// New metadata (replaces the old).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

impl HouseholdChanges {
    /// What differs between two versions of a household.
    pub fn between(before: &Household, after: &Household) -> HouseholdChanges {
        HouseholdChanges {
            name: changed(&before.name, &after.name),
            region: changed(&before.region, &after.region),
            metadata: changed(&before.metadata, &after.metadata),
        }
    }
    /// Whether nothing would change.
    pub fn is_empty(&self) -> bool {
        self == &HouseholdChanges::default()
    }
}

/// The body of `PATCH members/{id}`: only the fields that are `Some` are sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemberChanges {
    /// New name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New age group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub age_group: Option<String>,
    /// New picture; `Some(None)` clears it (sent as `null`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<Option<String>>,
}

impl MemberChanges {
    /// What differs between two versions of a member.
    pub fn between(before: &Member, after: &Member) -> MemberChanges {
        MemberChanges {
            name: changed(&before.name, &after.name),
            age_group: changed(&before.age_group, &after.age_group),
            image_url: changed(&before.image_url, &after.image_url),
        }
    }
    /// Whether nothing would change.
    pub fn is_empty(&self) -> bool {
        self == &MemberChanges::default()
    }
}

/// The body of `POST members/{id}/profile`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileInput {
    /// Dietary groups.
    pub dietary_groups: Vec<String>,
    /// Nutritional preferences, free-form. Not sent when empty: production's `POST` is an upsert
    /// that replaces the preferences of a profile there is whenever the key is sent, and
    /// creates a new profile with none when it is not.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub nutritional_preferences: Map<String, Value>,
    /// Allergies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allergies: Option<Vec<Value>>,
    /// Further properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<Map<String, Value>>,
}

/// The body of `PATCH members/{id}/profile`: only the fields that are `Some` are sent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileChanges {
    /// New dietary groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dietary_groups: Option<Vec<String>>,
    /// New nutritional preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nutritional_preferences: Option<Map<String, Value>>,
    /// New allergies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allergies: Option<Vec<Value>>,
    /// New properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<Map<String, Value>>,
}

impl ProfileChanges {
    /// What differs between two versions of a profile.
    pub fn between(before: &Profile, after: &Profile) -> ProfileChanges {
        ProfileChanges {
            dietary_groups: changed(&before.dietary_groups, &after.dietary_groups),
            nutritional_preferences: changed(
                &before.nutritional_preferences,
                &after.nutritional_preferences,
            ),
            allergies: changed(&before.allergies, &after.allergies),
            properties: changed(&before.properties, &after.properties),
        }
    }
    /// Whether nothing would change.
    pub fn is_empty(&self) -> bool {
        self == &ProfileChanges::default()
    }
}

impl From<&Profile> for ProfileInput {
    fn from(profile: &Profile) -> ProfileInput {
        ProfileInput {
            dietary_groups: profile.dietary_groups.clone(),
            nutritional_preferences: profile.nutritional_preferences.clone(),
            allergies: Some(profile.allergies.clone()),
            properties: Some(profile.properties.clone()),
        }
    }
}

fn changed<T: PartialEq + Clone>(before: &T, after: &T) -> Option<T> {
    (before != after).then(|| after.clone())
}

/// What a form's text field stores after an edit: the stored value when the typing differs from
/// it only by spaces at its ends, else the typed text trimmed. Production keeps a household's,
/// a member's and a region's spaces as sent (its models strip nothing), so a form that trimmed
/// them away would rename a household nobody renamed and call an untouched form changed.
pub fn edited_text(stored: &str, typed: &str) -> String {
    let typed = typed.trim();
    if typed == stored.trim() {
        stored.to_string()
    } else {
        typed.to_string()
    }
}

/// [`edited_text`] for a field that may be empty: nothing typed is `None`.
pub fn edited_optional_text(stored: Option<&str>, typed: &str) -> Option<String> {
    let typed = typed.trim();
    if typed == stored.unwrap_or_default().trim() {
        return stored.map(str::to_string);
    }
    (!typed.is_empty()).then(|| typed.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_keeps_stored_spaces_unless_the_text_changes() {
        assert_eq!(edited_text("  Oak  ", "  Oak  "), "  Oak  ");
        assert_eq!(edited_text("  Oak  ", "Oak"), "  Oak  ");
        assert_eq!(edited_text("  Oak  ", " Elm "), "Elm");
        assert_eq!(edited_text("Oak", "Oak "), "Oak");
        assert_eq!(
            edited_optional_text(Some(" EU "), " EU "),
            Some(" EU ".into())
        );
        assert_eq!(edited_optional_text(Some("   "), ""), Some("   ".into()));
        assert_eq!(edited_optional_text(Some(" EU "), "  "), None);
        assert_eq!(edited_optional_text(None, "  "), None);
        assert_eq!(edited_optional_text(None, " FR"), Some("FR".into()));
        // Untouched forms are unchanged: nothing is sent.
        let stored = Household {
            name: "  Oak  ".into(),
            region: Some(" EU ".into()),
            ..Household::default()
        };
        let mut after = stored.clone();
        after.name = edited_text(&stored.name, "  Oak  ");
        after.region = edited_optional_text(stored.region.as_deref(), " EU ");
        assert!(HouseholdChanges::between(&stored, &after).is_empty());
    }
}
