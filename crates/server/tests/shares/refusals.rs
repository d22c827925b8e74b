//! Creating a share link: what is refused, in production's words.

use super::*;

#[tokio::test]
async fn creating_refuses_in_productions_words() {
    for wire in WIRES {
        let w = world(wire).await;
        let cases: Vec<(Value, &str, u16, &str)> = vec![
            (
                json!({"kind": "daily_meal_plan", "id": w.plan}),
                &w.ann,
                404,
                "Cannot share a daily_meal_plan",
            ),
            (
                json!({"kind": "meal_plan", "id": "nope"}),
                &w.ann,
                404,
                "No such meal plan",
            ),
            (
                json!({"kind": "saved_meal_plan", "id": "nope"}),
                &w.ann,
                404,
                "No such saved meal plan",
            ),
            (
                json!({"kind": "meal_plan", "id": w.plan}),
                &w.bob,
                403,
                "You do not have access to this plan",
            ),
            (
                json!({"kind": "saved_meal_plan", "id": w.saved}),
                &w.agent,
                403,
                "You do not have access to this plan",
            ),
            (
                json!({"kind": "weekly_meal_plan", "id": "w-1"}),
                &w.ann,
                404,
                "Sharing a weekly plan needs the member it belongs to",
            ),
            (
                json!({"kind": "weekly_meal_plan", "id": "w-1", "member_id": w.member}),
                &w.ann,
                404,
                "That member has no weekly plan to share",
            ),
        ];
        for (body, token, status, words) in cases {
            let answer = w.share(token, body.clone()).await;
            assert_eq!(answer.status, status, "{wire} {body}: {}", answer.body);
            assert_eq!(answer.body["error"]["detail"], words, "{wire} {body}");
        }
        // A weekly plan of someone else's member: the member's own refusal first.
        let other = w
            .share(
                &w.bob,
                json!({"kind": "weekly_meal_plan", "id": "w", "member_id": w.member}),
            )
            .await;
        assert_eq!(other.status, 403, "{}", other.body);
        for bad in [
            json!({"id": w.plan}),
            json!({"kind": "meal_plan"}),
            json!({"kind": "meal_plan", "id": "x".repeat(101)}),
            json!({"kind": "meal_plan", "id": w.plan, "expires_in_days": 0}),
            json!({"kind": "meal_plan", "id": w.plan, "expires_in_days": 366}),
            json!({"kind": "meal_plan", "id": w.plan, "member_id": "m".repeat(101)}),
        ] {
            let answer = w.share(&w.ann, bad.clone()).await;
            assert_error(&answer, 422, "request/unprocessable");
            assert_eq!(
                answer.body["error"].get("errors").is_some(),
                wire == "reference",
                "{wire} {bad}"
            );
        }
        assert_eq!(
            w.server
                .call(
                    "POST",
                    "shares",
                    None,
                    Some(json!({"kind": "meal_plan", "id": w.plan}))
                )
                .await
                .status,
            401
        );
        // An administrator shares any household's plan; the link is the administrator's.
        let by_admin = w
            .share(&w.admin, json!({"kind": "meal_plan", "id": w.plan}))
            .await;
        assert_eq!(by_admin.status, w.created());
        let listed = w.server.call("GET", "shares", Some(&w.admin), None).await;
        assert_eq!(listed.body["result"]["shares"].as_array().unwrap().len(), 1);
        let anns = w.server.call("GET", "shares", Some(&w.ann), None).await;
        assert!(anns.body["result"]["shares"].as_array().unwrap().is_empty());
    }
}
