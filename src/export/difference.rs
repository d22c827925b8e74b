//! One difference between a household file and what the service answers after a restore: the
//! comparison's unit, shared by the household's and the library's comparisons
//! (`super::restore`, `super::restore_library`).

/// A field whose value in the file and in the service's answer differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Whose field: the household, a member's name, a member's plan of a day.
    pub whose: String,
    /// The field, dotted (`profile.allergies`).
    pub field: String,
    /// In the file.
    pub in_file: String,
    /// As the service answers it.
    pub answered: String,
}
