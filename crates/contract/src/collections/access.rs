//! Who may call a route, and who serves it: the words every collection's table and the
//! reading policy's describe routes with (kept apart from `descriptors` so that `policy` and
//! `descriptors` need only this, not each other).

use crate::roles::{ADMIN, AGENT, EXPERT};

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteRoles {
    /// Any signed-in caller.
    AnySignedIn,
    /// Callers holding one of these roles.
    Roles(&'static [&'static str]),
}

impl WriteRoles {
    /// Whether a caller with `roles` passes. Roles compare as production's gate does: trimmed
    /// and lower-cased on both sides.
    pub fn allows(&self, roles: &[String]) -> bool {
        match self {
            WriteRoles::AnySignedIn => true,
            WriteRoles::Roles(allowed) => roles.iter().any(|r| {
                let r = crate::text::lowercase(r.trim());
                allowed.iter().any(|a| *a == r)
            }),
        }
    }
}

/// Whether a route exists, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Production serves it (and so does the reference service).
    Production,
    /// Only interface.md asks for it: the reference service serves it, production answers a
    /// bare 404 or 405, and the console must survive that.
    InterfaceOnly,
    /// Nobody serves it.
    Absent,
}

impl Offered {
    /// Whether the reference service serves it.
    pub fn by_reference(self) -> bool {
        self != Offered::Absent
    }
    /// Whether production serves it.
    pub fn by_production(self) -> bool {
        self == Offered::Production
    }
}

/// Administrators and curators (production's "AE").
pub const CURATORS: WriteRoles = WriteRoles::Roles(&[ADMIN, EXPERT]);
/// Administrators, curators and agents (production's "AEA").
pub const CURATORS_AND_AGENTS: WriteRoles = WriteRoles::Roles(&[ADMIN, EXPERT, AGENT]);
/// Administrators only.
pub const ADMINS: WriteRoles = WriteRoles::Roles(&[ADMIN]);
