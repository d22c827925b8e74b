//! The demo household's meal plans and library (production.md §10.3): a few days of plans
//! around today for Olivia, Liam and Rose, and Olivia's saved items, favourites, an adapted
//! recipe and a saved meal plan, so the member pages show them from the start.

use chrono::{Days, Utc};
use larder_contract::member_data::{
    MAX_ADAPTED_RECIPES_PER_MEMBER, MAX_MEAL_PLANS_PER_MEMBER, MAX_SAVED_ITEMS_PER_MEMBER,
    MAX_SAVED_MEAL_PLANS_PER_MEMBER,
};
use serde_json::{json, Value};

use crate::store::{MemberOrder, NewPlan, Store, Stored};

fn meal(recipe_id: &str, title: &str, ingredients: &str, directions: &str) -> Value {
    json!({"recipe_id": recipe_id, "title": title, "ingredients": ingredients, "directions": directions})
}

fn plan(source: &str, meals: [Value; 3], reasoning: &str) -> Value {
    let [breakfast, lunch, dinner] = meals;
    json!({
        "source_meal_plan_id": source, "source_created_at": null,
        "breakfast": breakfast, "lunch": lunch, "dinner": dinner, "reasoning": reasoning,
    })
}

fn porridge() -> Value {
    meal(
        "rw-1001",
        "Porridge with berries",
        "80 g rolled oats\n250 ml milk\n1 handful of blueberries\n1 tsp honey",
        "Simmer the oats in the milk for 5 minutes, stirring.\nTop with the berries and honey.",
    )
}

/// Adds the plans and the library to the demo household `household_id` (just created).
pub fn load(store: &Store, household_id: &str) -> anyhow::Result<()> {
    let members = store
        .households()
        .members(household_id, MemberOrder::Oldest, 10, 0)?;
    let id_of = |name: &str| {
        members
            .iter()
            .find(|m| m["name"] == name)
            .and_then(|m| m["id"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    let (olivia, liam, rose) = (id_of("Olivia"), id_of("Liam"), id_of("Rose"));
    let today = Utc::now().date_naive();
    let day = |offset: i64| {
        let moved = if offset < 0 {
            today.checked_sub_days(Days::new(offset.unsigned_abs()))
        } else {
            today.checked_add_days(Days::new(offset as u64))
        };
        moved.unwrap_or(today).format("%Y-%m-%d").to_string()
    };
    let plans = [
        (
            -1,
            vec![olivia.clone(), liam.clone()],
            plan(
                "fc-demo-1",
                [
                    porridge(),
                    meal("rw-1002", "Lentil soup", "200 g red lentils\n1 onion\n1 carrot\n1 l vegetable stock", "Soften the onion and carrot, add the lentils and stock, simmer 20 minutes."),
                    meal("rw-1003", "Baked salmon with potatoes", "2 salmon fillets\n400 g new potatoes\n1 lemon", "Roast the potatoes 25 minutes at 200 °C, add the salmon for the last 12."),
                ],
                "Fish twice a week, and no nuts for Liam.",
            ),
        ),
        (
            0,
            vec![olivia.clone(), liam.clone(), rose.clone()],
            plan(
                "fc-demo-2",
                [
                    meal("rw-1004", "Yoghurt with oats and apple", "150 g natural yoghurt\n30 g oats\n1 apple, grated", "Stir together and leave 5 minutes."),
                    meal("rw-1005", "Vegetable omelette", "3 eggs\n1 pepper\n1 handful of spinach", "Soften the vegetables, pour the beaten eggs over, cook gently until set."),
                    meal("rw-1006", "Bean and vegetable stew", "1 tin of butter beans\n2 carrots\n1 courgette\n1 tin of tomatoes", "Simmer everything for 30 minutes; season with herbs rather than salt."),
                ],
                "A soft, low-salt dinner everyone can share.",
            ),
        ),
        (
            1,
            vec![olivia.clone()],
            plan(
                "fc-demo-3",
                [
                    porridge(),
                    meal("rw-1007", "Tuna and bean salad", "1 tin of tuna\n1 tin of cannellini beans\n1 red onion\nolive oil", "Drain, toss together, dress with oil and lemon."),
                    meal("rw-1008", "Prawn stir-fry", "200 g prawns\n1 pak choi\n1 pepper\nnoodles", "Stir-fry the vegetables 3 minutes, add the prawns and noodles."),
                ],
                "Pescatarian, around 2,000 kcal.",
            ),
        ),
        (
            3,
            vec![rose.clone()],
            plan(
                "fc-demo-4",
                [
                    meal("rw-1009", "Soft scrambled eggs", "2 eggs\n1 slice of wholemeal bread", "Cook the eggs slowly, stirring; serve on toast."),
                    meal("rw-1010", "Pea and mint soup", "300 g peas\n1 potato\nmint", "Simmer the potato and peas, blend with the mint."),
                    meal("rw-1011", "Cauliflower cheese", "1 cauliflower\n300 ml milk\n60 g cheddar", "Steam the cauliflower, cover with the sauce and bake 20 minutes."),
                ],
                "Vegetarian and low in salt.",
            ),
        ),
    ];
    for (n, (offset, members, doc)) in plans.into_iter().enumerate() {
        let date = day(offset);
        let stamp = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
        let stored = store.plans().store(&NewPlan {
            requested: &members[0],
            members: &{
                let mut sorted = members.clone();
                sorted.sort();
                sorted
            },
            date: &date,
            doc: &doc,
            id: &uuid::Uuid::new_v4().to_string(),
            created_at: &stamp,
            cap: MAX_MEAL_PLANS_PER_MEMBER,
        })?;
        anyhow::ensure!(
            matches!(stored, Stored::Plan(_)),
            "demo plan {n}: {stored:?}"
        );
    }
    let library = store.library();
    let stamp = || Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    for (kind, reference) in [
        ("guide", "urn:guide:eat-well-2024"),
        ("textbook", "urn:textbook:foundations-of-nutrition-science"),
        ("recipe", "rw-1003"),
        ("recipe", "rw-1008"),
    ] {
        library.save_item(
            &olivia,
            kind,
            reference,
            &stamp(),
            MAX_SAVED_ITEMS_PER_MEMBER,
        )?;
    }
    library.put_adapted_recipe(
        &olivia,
        "rw-1002",
        &json!("Lentil soup, less salt"),
        &json!({"action": "reduce", "original_ingredient": "vegetable stock", "reduction_pct": 50,
            "ingredients": ["200 g red lentils", "1 onion", "1 carrot", "500 ml vegetable stock", "500 ml water"],
            "nutrition": {"kcal": 310, "protein_g": 19, "carbs_g": 48, "fat_g": 3, "nutri_score_label": "A"}}),
        &stamp(),
        MAX_ADAPTED_RECIPES_PER_MEMBER,
    )?;
    let sunday = plan(
        "fc-demo-saved",
        [
            porridge(),
            meal(
                "rw-1005",
                "Vegetable omelette",
                "3 eggs\n1 pepper\n1 handful of spinach",
                "Cook gently until set.",
            ),
            meal(
                "rw-1003",
                "Baked salmon with potatoes",
                "2 salmon fillets\n400 g new potatoes\n1 lemon",
                "Roast 25 minutes at 200 °C.",
            ),
        ],
        "A favourite Sunday.",
    );
    let mut snapshot = sunday;
    snapshot["name"] = json!("Our Sunday");
    snapshot["source_applied_on"] = Value::Null;
    if let Some(fields) = snapshot.as_object_mut() {
        fields.remove("source_created_at");
    }
    library.save_plan(
        &olivia,
        &snapshot,
        &uuid::Uuid::new_v4().to_string(),
        &stamp(),
        MAX_SAVED_MEAL_PLANS_PER_MEMBER,
    )?;
    Ok(())
}
