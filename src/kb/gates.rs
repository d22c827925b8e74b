//! Which buttons the signed-in identity sees, per collection: the contract's role rules over the
//! identity's roles. Only for hiding what would be refused; the service still decides.

use leptos::prelude::*;

use crate::kb::schema::Schema;
use crate::session::Session;

/// The collections of the contract.
const COUNT: usize = larder_api::collections::COLLECTIONS.len();

/// Role gates per collection, created once in the console's root scope: pages come and go (and
/// are disposed while a sign-out re-renders them), the gates stay readable.
#[derive(Clone, Copy)]
pub struct RoleGates {
    write: [Memo<bool>; COUNT],
    create: [Memo<bool>; COUNT],
    delete: [Memo<bool>; COUNT],
    enhance: [Memo<bool>; COUNT],
}

impl RoleGates {
    /// Creates the gates for the session's identity and provides them in context.
    pub fn provide(session: Session) {
        let gate = |allows: fn(&larder_contract::Collection, &larder_api::Identity) -> bool| {
            std::array::from_fn(|index| {
                let collection = &larder_api::collections::COLLECTIONS[index];
                Memo::new(move |_| {
                    session
                        .identity
                        .with(|i| i.as_ref().is_some_and(|i| allows(collection, i)))
                })
            })
        };
        provide_context(RoleGates {
            write: gate(|c, i| c.roles.update.allows(&i.roles)),
            create: gate(|c, i| c.roles.create.allows(&i.roles)),
            delete: gate(|c, i| c.roles.delete.allows(&i.roles)),
            enhance: gate(|c, i| c.roles.enhance.allows(&i.roles)),
        });
    }
}

fn gate_index(schema: &'static Schema) -> usize {
    larder_api::collections::COLLECTIONS
        .iter()
        .position(|c| c.path == schema.collection.path)
        .unwrap_or_default()
}

/// Whether the signed-in identity holds one of `roles` (a contract route's gate, such as a
/// bulk action's); for hiding what would be refused, as the other gates.
pub fn holds(roles: larder_contract::collections::WriteRoles) -> Memo<bool> {
    let session = expect_context::<crate::session::Session>();
    Memo::new(move |_| {
        session
            .identity
            .with(|i| i.as_ref().is_some_and(|i| roles.allows(&i.roles)))
    })
}

/// Whether the signed-in identity holds a role that may edit records of the collection (roles
/// as production's gates read them: realm and client roles, lower-cased). Only for hiding
/// buttons: the service decides, and its 403 is still shown.
pub fn can_write(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().write[gate_index(schema)]
}

/// Whether the signed-in identity may create records of the collection.
pub fn can_create(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().create[gate_index(schema)]
}

/// Whether the signed-in identity may run an enhancement: writers of the collection, and agents.
pub fn can_enhance(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().enhance[gate_index(schema)]
}

/// Whether the signed-in identity may delete in the collection.
pub fn can_delete(schema: &'static Schema) -> Memo<bool> {
    expect_context::<RoleGates>().delete[gate_index(schema)]
}
