//! Pure logic behind what an owner does with their own data (issues 22 and 38): member pictures
//! in production's notation, a profile's known keys, its goals, memories and allergies as
//! production holds them, the move from Larder's earlier key names, and where the
//! first-household guide stands.

pub mod allergies;
pub mod avatar;
pub mod earlier;
pub mod goals;
pub mod listing;
pub mod memories;
pub mod plans;
pub mod profile_keys;

/// What services say an erasure keeps (`retained`), with readable names in every language:
/// production's (production.md §8 row 3) and larder-server's. Others are shown as they come.
pub const RETAINED: [&str; 5] = [
    "consent_ledger",
    "model_request_traces",
    "authored_records",
    "enhancement_log",
    "erasure_record",
];

/// A step of the first-household guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Name and region: there is no household yet.
    Household,
    /// The first member: the household has none.
    Member,
    /// Their diet: the first member has no dietary group yet.
    Diet,
    /// Nothing left to do.
    Done,
}

impl Step {
    /// The step's number, 1 to 3 (`Done` is past the last).
    pub fn number(self) -> u8 {
        match self {
            Step::Household => 1,
            Step::Member => 2,
            Step::Diet => 3,
            Step::Done => 4,
        }
    }
}

/// Where the guide stands, read from what the service holds (so a reload resumes it, and
/// nothing but the guide's household id needs remembering): no household, then no member,
/// then a first member without dietary groups.
pub fn step(has_household: bool, members: usize, first_member_has_diet: bool) -> Step {
    match (has_household, members, first_member_has_diet) {
        (false, _, _) => Step::Household,
        (true, 0, _) => Step::Member,
        (true, _, false) => Step::Diet,
        _ => Step::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_follows_the_service_state() {
        assert_eq!(step(false, 0, false), Step::Household);
        assert_eq!(step(true, 0, false), Step::Member);
        assert_eq!(step(true, 2, false), Step::Diet);
        assert_eq!(step(true, 1, true), Step::Done);
        assert_eq!(Step::Diet.number(), 3);
    }
}
