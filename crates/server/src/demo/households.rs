//! Demo households: olivia's family of three with profiles, and `family01`..`family24`
//! (password `family-demo`), so an admin has pages of households to go through.

use serde_json::{json, Value};

use crate::auth::{hash_secret, AccountKind, Auth};
use crate::store::{now, Store};

/// The password of every generated `familyNN` account.
pub const FAMILY_PASSWORD: &str = "family-demo";
/// How many `familyNN` accounts and households the demo adds.
pub const FAMILY_COUNT: usize = 24;

const REGIONS: &[&str] = &["GB", "IE", "FR", "DE", "ES", "IT", "NL", "SE"];
const GROUPS: &[&str] = &[
    "adult",
    "child",
    "teen",
    "senior",
    "young_adult",
    "middle_aged",
    "baby",
];
const DIETS: &[&str] = &[
    "omnivore",
    "vegetarian",
    "vegan",
    "pescatarian",
    "flexitarian",
    "halal",
    "gluten_free",
];

fn member(household_id: &str, name: &str, age_group: &str, profile: Option<Value>) -> Value {
    let id = uuid::Uuid::new_v4().to_string();
    let mut member = json!({
        "id": id, "household_id": household_id, "name": name, "age_group": age_group,
        "image_url": null, "joined_at": now(),
    });
    if let Some(mut profile) = profile {
        profile["id"] = json!(uuid::Uuid::new_v4().to_string());
        profile["household_member_id"] = json!(id);
        profile["created_at"] = json!(now());
        profile["updated_at"] = json!(now());
        member["profile"] = profile;
    }
    member
}

fn household(owner: &str, name: &str, region: &str) -> Value {
    let timestamp = now();
    json!({
        "id": uuid::Uuid::new_v4().to_string(), "name": name, "owner_id": owner, "region": region,
        "metadata": {"source": "demo"}, "created_at": timestamp, "updated_at": timestamp,
    })
}

/// Creates the demo households; existing ones are left as they are.
pub fn load(store: &Store, auth: &Auth) -> anyhow::Result<()> {
    let households = store.households();
    // An owner who erased her account (`DELETE users/me`) does not get the demo household back.
    let olivia = auth.account_exists(store, AccountKind::User, "olivia")?;
    if olivia && households.by_owner("user:olivia")?.is_none() {
        let home = household("user:olivia", "The Parkers", "GB");
        let id = home["id"].as_str().unwrap_or_default().to_string();
        let members = [
            member(
                &id,
                "Olivia",
                "adult",
                Some(json!({
                    "dietary_groups": ["pescatarian"], "allergies": [],
                    "nutritional_preferences": {"calories_per_day": 2000, "likes": ["fish", "salads"]},
                    "properties": {"activity": "moderate"},
                })),
            ),
            member(
                &id,
                "Liam",
                "child",
                Some(json!({
                    "dietary_groups": ["omnivore", "nut_free"], "allergies": ["peanuts"],
                    "nutritional_preferences": {"dislikes": ["mushrooms"]}, "properties": {},
                })),
            ),
            member(
                &id,
                "Rose",
                "senior",
                Some(json!({
                    "dietary_groups": ["vegetarian", "low_sodium"], "allergies": [],
                    "nutritional_preferences": {"texture": "soft"}, "properties": {"diabetes": "type 2"},
                })),
            ),
        ];
        households.create("user:olivia", &home, &members)?;
        super::member_data::load(store, &id)?;
    }
    // One hash for every generated account: hashing is deliberately slow.
    let mut hash = None;
    for n in 1..=FAMILY_COUNT {
        let name = format!("family{n:02}");
        if !auth.account_exists(store, AccountKind::User, &name)? {
            if hash.is_none() {
                hash = Some(hash_secret(FAMILY_PASSWORD)?);
            }
            auth.upsert_hashed(
                store,
                AccountKind::User,
                &name,
                hash.as_deref().unwrap_or_default(),
                &[],
            )?;
        }
        let owner = format!("user:{name}");
        if households.by_owner(&owner)?.is_none() {
            let home = household(
                &owner,
                &format!("Family {n:02}"),
                REGIONS[n % REGIONS.len()],
            );
            let id = home["id"].as_str().unwrap_or_default().to_string();
            let members: Vec<Value> = (0..1 + n % 3)
                .map(|k| {
                    let profile = json!({
                        "dietary_groups": [DIETS[(n + k) % DIETS.len()]], "allergies": [],
                        "nutritional_preferences": {}, "properties": {},
                    });
                    member(
                        &id,
                        &format!("Member {}", k + 1),
                        GROUPS[(n + k) % GROUPS.len()],
                        Some(profile),
                    )
                })
                .collect();
            households.create(&owner, &home, &members)?;
        }
    }
    Ok(())
}
