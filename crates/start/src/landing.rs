//! Where a sign-in lands (the remembered link, `/sign-in?next=`) and what that page needs
//! first: the group of pages whose module brings it, and whether it reads the caller's own
//! household. Both modules fetch exactly that while people type, never every group: the
//! start-up module asks for its bundle with the console's main module (`boot.js`), the
//! console's module for the group itself (`larder::lazy::prefetch`). Pure: tested natively.
//!
//! The paths mirror the route table in the console (`src/app.rs`); a path it does not know
//! lands on no group (the console's main module alone).

/// A group of pages that arrives as one module in the split build (`larder::lazy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// "My household".
    Household,
    /// A member's page, in any household.
    Member,
    /// Every household (administrators).
    Admin,
    /// A collection's list and search: a curator's landing, on its own (issue 37).
    RecordList,
    /// A record, a new record.
    KnowledgeBase,
}

impl Group {
    /// Every group.
    pub const ALL: [Group; 5] = [
        Group::Household,
        Group::Member,
        Group::Admin,
        Group::RecordList,
        Group::KnowledgeBase,
    ];

    /// The name of its module in the split build: the names of `larder::lazy`'s groups
    /// (`cargo xtask dist` stops when the splitter made no such module).
    pub fn split_name(self) -> &'static str {
        match self {
            Group::Household => "household_pages",
            Group::Member => "member_pages",
            Group::Admin => "admin_pages",
            Group::RecordList => "record_list_pages",
            Group::KnowledgeBase => "knowledge_base_pages",
        }
    }
}

/// The page a sign-in started at `inside` (the path inside the console's base, with its
/// query) will land on: `next` (decoded) on the sign-in page itself, else that path.
pub fn after_sign_in(inside: &str, next: Option<&str>) -> Option<Landing> {
    if inside.starts_with("/sign-in") {
        return landing(next?);
    }
    landing(inside)
}

/// The page a link opens, as far as fetching ahead goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    /// The module its page is in.
    pub group: Group,
    /// Whether the page starts by reading `households/me` ("My household").
    pub reads_own_household: bool,
}

/// The landing of a console path (inside its base, query and fragment allowed), `None` for a
/// page that is in the console's main module (the start page, sign-in) or unknown.
pub fn landing(path: &str) -> Option<Landing> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let group = match segments.as_slice() {
        ["household"] => {
            return Some(Landing {
                group: Group::Household,
                reads_own_household: true,
            })
        }
        ["household", "members", _] | ["households", _, "members", _] => Group::Member,
        ["households"] | ["households", _] | ["status"] => Group::Admin,
        ["records", _] | ["overview"] => Group::RecordList,
        ["records", _, _] => Group::KnowledgeBase,
        _ => return None,
    };
    Some(Landing {
        group,
        reads_own_household: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(path: &str) -> Option<Group> {
        landing(path).map(|l| l.group)
    }

    #[test]
    fn my_household_brings_its_group_and_its_read() {
        for path in [
            "/household",
            "/household/",
            "/household?x=1",
            "/household#top",
        ] {
            assert_eq!(
                landing(path),
                Some(Landing {
                    group: Group::Household,
                    reads_own_household: true
                }),
                "{path}"
            );
        }
        assert_eq!(group("/household/members/m-1"), Some(Group::Member));
        assert_eq!(
            group("/households/h-1/members/m-1"),
            Some(Group::Member),
            "a member's page is in the member group, from any household"
        );
        assert!(
            !landing("/household/members/m-1")
                .unwrap()
                .reads_own_household
        );
    }

    #[test]
    fn knowledge_base_links_bring_that_group_only() {
        for path in ["/records/articles", "/records/articles?q=vitamin&limit=10"] {
            assert_eq!(group(path), Some(Group::RecordList), "{path}");
        }
        for path in [
            "/records/articles/new",
            "/records/articles/urn%3Aarticle%3Ax",
        ] {
            assert_eq!(group(path), Some(Group::KnowledgeBase), "{path}");
        }
        assert!(!landing("/records/articles").unwrap().reads_own_household);
    }

    #[test]
    fn a_sign_in_lands_on_its_next_or_on_the_page_it_was_opened_at() {
        let household = landing("/household");
        assert_eq!(after_sign_in("/household", None), household);
        assert_eq!(
            after_sign_in("/sign-in?next=x", Some("/household")),
            household
        );
        assert_eq!(after_sign_in("/sign-in", None), None);
        assert_eq!(after_sign_in("/sign-in", Some("/nowhere")), None);
    }

    #[test]
    fn the_administrators_pages() {
        assert_eq!(group("/households?offset=20&limit=10"), Some(Group::Admin));
        assert_eq!(group("/households/h-1"), Some(Group::Admin));
        assert_eq!(group("/status"), Some(Group::Admin));
        assert_eq!(group("/overview"), Some(Group::RecordList));
    }

    #[test]
    fn pages_of_the_console_itself_or_unknown_bring_nothing() {
        for path in [
            "",
            "/",
            "/sign-in",
            "/nowhere",
            "/records",
            "/records/a/b/c",
            "/household/members",
            "/householdx",
        ] {
            assert_eq!(landing(path), None, "{path}");
        }
    }
}
