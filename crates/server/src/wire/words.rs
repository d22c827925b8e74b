//! The sentences the two wires word differently, in one table ([`Said::words`]).
//!
//! The reference service words a refusal as a sentence (a full stop, an id quoted); production
//! words it as its code does (no full stop, an id bare, "member" for a household too). Each row
//! gives both, and cites where production's words are recorded: production.md (the
//! repository's copy is `crates/contract/spec/production.md`) or the answers production's own
//! households service gave when run here (realprod's ANSWERS.md, copied to
//! `crates/contract/spec/realprod-answers.md`), with the values that record's example names, so
//! `tests/wire_words.rs` finds the very sentence there.
//!
//! Messages both wires word alike are written where they are answered, not here.

/// A message whose words depend on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// 401: a gated route without an `Authorization` header.
    BearerMissing,
    /// 401: a sign-in with a wrong password or an unknown name.
    InvalidCredentials,
    /// 404: a path no route serves (`{method}`, `{path}`).
    NoRoute,
    /// 405: a method the path's routes do not take (`{method}`, `{path}`).
    WrongMethod,
    /// 404: `households/me` of a caller who owns none.
    NoOwnHousehold,
    /// 404: household `{id}` does not exist.
    HouseholdMissing,
    /// 409: `{owner}` owns a household already.
    AlreadyOwnsHousehold,
    /// 403: the caller may not act on this household.
    NoHouseholdAccess,
    /// 404: member `{id}` does not exist.
    MemberMissing,
    /// 403: the caller may not act on this member.
    NoMemberAccess,
    /// 404: `GET` of member `{id}`'s profile, which does not exist.
    ProfileMissing,
    /// 404: `PATCH` of member `{id}`'s profile, which does not exist.
    ProfileMissingOnPatch,
}

/// The values a message's template names: `{id}`, `{owner}`, `{method}`, `{path}`; `{id:?}`
/// writes the id quoted and escaped, as Rust's `Debug` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct About<'a> {
    /// A household's or member's id.
    pub id: &'a str,
    /// A household owner's key.
    pub owner: &'a str,
    /// A request's method.
    pub method: &'a str,
    /// A request's path.
    pub path: &'a str,
}

impl<'a> About<'a> {
    /// A message about `id`.
    pub const fn id(id: &'a str) -> About<'a> {
        About {
            id,
            owner: "",
            method: "",
            path: "",
        }
    }

    /// A message about the household owner `owner`.
    pub const fn owner(owner: &'a str) -> About<'a> {
        About {
            id: "",
            owner,
            method: "",
            path: "",
        }
    }

    /// A message about a request.
    pub const fn request(method: &'a str, path: &'a str) -> About<'a> {
        About {
            id: "",
            owner: "",
            method,
            path,
        }
    }

    /// A message about nothing in particular.
    pub const NOTHING: About<'static> = About {
        id: "",
        owner: "",
        method: "",
        path: "",
    };
}

/// Where production's words are recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// production.md, in this section (`"4.1"`).
    ProductionMd(&'static str),
    /// realprod's ANSWERS.md ("What production's own code answers"), at this step of its table.
    Answers(u32),
}

/// One row of the table: a message as each wire words it.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The reference service's template.
    pub reference: &'static str,
    /// Production's template, as [`Words::source`] records production's words.
    pub production: &'static str,
    /// Where production's words are recorded.
    pub source: Source,
    /// The values the source's own example names (its ids), to find the sentence there.
    pub example: About<'static>,
}

impl Said {
    /// Every message, in the table's order.
    pub const ALL: [Said; 12] = [
        Said::BearerMissing,
        Said::InvalidCredentials,
        Said::NoRoute,
        Said::WrongMethod,
        Said::NoOwnHousehold,
        Said::HouseholdMissing,
        Said::AlreadyOwnsHousehold,
        Said::NoHouseholdAccess,
        Said::MemberMissing,
        Said::NoMemberAccess,
        Said::ProfileMissing,
        Said::ProfileMissingOnPatch,
    ];

    /// The table: this message's words on each wire.
    pub const fn words(self) -> Words {
        const NOTHING: About<'static> = About::NOTHING;
        match self {
            Said::BearerMissing => Words {
                reference: "Bearer token is missing.",
                production: "Bearer token is missing",
                source: Source::Answers(6),
                example: NOTHING,
            },
            Said::InvalidCredentials => Words {
                reference: "Invalid credentials.",
                // Keycloak's words, passed through by production for a wrong password and an
                // unknown user alike (its only 401s there).
                production: "Invalid user credentials",
                source: Source::Answers(2),
                example: NOTHING,
            },
            Said::NoRoute => Words {
                reference: "No route {method} {path}.",
                production: "Not Found",
                source: Source::ProductionMd("1.1"),
                example: NOTHING,
            },
            Said::WrongMethod => Words {
                reference: "{method} is not allowed on {path}.",
                production: "Method Not Allowed",
                source: Source::ProductionMd("1.1"),
                example: NOTHING,
            },
            Said::NoOwnHousehold => Words {
                reference: "User does not own a household.",
                production: "User does not own a household",
                source: Source::Answers(8),
                example: NOTHING,
            },
            Said::HouseholdMissing => Words {
                reference: "Household {id:?} was not found.",
                production: "Household {id} not found",
                source: Source::Answers(42),
                example: About::id("does-not-exist"),
            },
            Said::AlreadyOwnsHousehold => Words {
                reference: "You already own a household.",
                production: "User {owner} already owns a household",
                source: Source::Answers(13),
                example: About::owner("4ea842e6-99a6-55ec-927c-e5fd6f2d3126"),
            },
            Said::NoHouseholdAccess => Words {
                reference: "You do not have access to this household.",
                // Production says "member" for households too.
                production: "You do not have access to this member",
                source: Source::Answers(35),
                example: NOTHING,
            },
            Said::MemberMissing => Words {
                reference: "Member {id:?} was not found.",
                production: "Household member {id} not found",
                source: Source::Answers(43),
                example: About::id("does-not-exist"),
            },
            Said::NoMemberAccess => Words {
                reference: "You do not have access to this member.",
                production: "You do not have access to this member",
                source: Source::Answers(38),
                example: NOTHING,
            },
            Said::ProfileMissing => Words {
                reference: "Profile not found for this member.",
                production: "Profile not found for this member",
                source: Source::Answers(18),
                example: NOTHING,
            },
            Said::ProfileMissingOnPatch => Words {
                reference: "Profile not found for this member.",
                production: "Profile for household member {id} not found",
                source: Source::Answers(19),
                example: About::id("bec4598f-dbb6-49da-8705-53254bed7e18"),
            },
        }
    }
}

/// `template` with the values of `about` in its places, in one pass (a value holding `{id}`
/// stays as it is).
pub fn fill(template: &str, about: &About<'_>) -> String {
    let mut out = String::with_capacity(template.len() + about.id.len() + about.path.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let place = rest.find('}').map(|end| &rest[..=end]);
        match place {
            Some("{id:?}") => out.push_str(&format!("{:?}", about.id)),
            Some("{id}") => out.push_str(about.id),
            Some("{owner}") => out.push_str(about.owner),
            Some("{method}") => out.push_str(about.method),
            Some("{path}") => out.push_str(about.path),
            _ => {
                out.push('{');
                rest = &rest[1..];
                continue;
            }
        }
        rest = &rest[place.map_or(1, str::len)..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_take_their_values() {
        let about = About::request("GET", "/api/v1/x");
        assert_eq!(
            fill(Said::NoRoute.words().reference, &about),
            "No route GET /api/v1/x."
        );
        assert_eq!(
            fill(Said::HouseholdMissing.words().reference, &About::id("a\"b")),
            r#"Household "a\"b" was not found."#
        );
        assert_eq!(
            fill(
                Said::HouseholdMissing.words().production,
                &About::id("a\"b")
            ),
            r#"Household a"b not found"#
        );
        assert_eq!(
            fill("{method} {path} {x}", &About::request("{path}", "/{id}")),
            "{path} /{id} {x}"
        );
    }
}
