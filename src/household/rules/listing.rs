//! The administrator's household list as its URL holds it (issue 40 item 5): what is searched
//! (`q`, name or owner), the region, the sort and its order, and the page; read from the query
//! and written back, so a search can be linked, and the service asked with it.

use larder_api::household_search::HouseholdSearch;
use larder_contract::households::HOUSEHOLD_SORTS;

/// A search from the URL's parameters (`get` answers one by name); a sort the service does not
/// know is dropped, as is an order other than `desc`.
pub fn from_query(
    get: impl Fn(&str) -> Option<String>,
    limit: u32,
    offset: u32,
) -> HouseholdSearch {
    let sort = get("sort")
        .filter(|s| HOUSEHOLD_SORTS.contains(&s.as_str()))
        .unwrap_or_default();
    HouseholdSearch {
        q: get("q").unwrap_or_default().trim().to_string(),
        region: get("region").unwrap_or_default().trim().to_string(),
        descending: !sort.is_empty() && get("order").as_deref() == Some("desc"),
        sort,
        limit,
        offset,
    }
}

/// `/households?…` for `search`, from its first page.
pub fn href(search: &HouseholdSearch) -> String {
    let enc = larder_api::config::encode_component;
    let mut parts = Vec::new();
    if !search.q.trim().is_empty() {
        parts.push(format!("q={}", enc(search.q.trim())));
    }
    if !search.region.trim().is_empty() {
        parts.push(format!("region={}", enc(search.region.trim())));
    }
    if !search.sort.is_empty() {
        parts.push(format!("sort={}", enc(&search.sort)));
        parts.push(format!(
            "order={}",
            if search.descending { "desc" } else { "asc" }
        ));
    }
    parts.push(format!("limit={}", search.limit));
    parts.push("offset=0".into());
    format!("/households?{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn search(pairs: &[(&str, &str)]) -> HouseholdSearch {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        from_query(|name| map.get(name).cloned(), 25, 50)
    }

    #[test]
    fn the_url_holds_the_search_and_gives_it_back() {
        let asked = search(&[
            ("q", " Parker "),
            ("region", "GR"),
            ("sort", "member_count"),
            ("order", "desc"),
        ]);
        assert_eq!(asked.q, "Parker");
        assert!(asked.descending);
        assert!(asked.is_search());
        assert_eq!(
            href(&asked),
            "/households?q=Parker&region=GR&sort=member_count&order=desc&limit=25&offset=0"
        );
        assert!(!search(&[("order", "desc")]).descending);
        assert_eq!(search(&[("sort", "owner_id")]).sort, "");
        assert!(!search(&[]).is_search());
        assert_eq!(href(&search(&[])), "/households?limit=25&offset=0");
        assert_eq!(search(&[("q", "Ö & co")]).q, "Ö & co");
        assert_eq!(
            href(&search(&[("q", "a&b")])),
            "/households?q=a%26b&limit=25&offset=0"
        );
    }
}
