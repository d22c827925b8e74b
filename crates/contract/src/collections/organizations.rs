//! Organizations (production.md §2.8): who publishes guides, articles and textbooks, pointed at
//! by their `organization_urn`. Schemas from wisefood-data-api src/schemas/schemas.py
//! (`OrganizationCreationSchema`, `OrganizationUpdateSchema`, `OrganizationSchema`).

use super::shared::{updatable, LIFECYCLE_STATUS, STAMPS};
use super::{
    Autocomplete, Collection, IdentifierKind, Offered, ReadRule, Roles, Routes, WriteRoles,
};
use crate::types::{Field, Type, S2K};

/// No caller: what no route serves.
const NOBODY: WriteRoles = WriteRoles::Roles(&[]);

const ORGANIZATION_CREATE: &[Field] = &[
    Field::req("urn", Type::Slug),
    Field::req("title", S2K),
    Field::req("description", S2K),
    Field::req("url", Type::Url),
    Field::req("contact_email", Type::Email),
    Field::opt("image_url", Type::Url),
    Field::opt("status", LIFECYCLE_STATUS),
];

const ORGANIZATION_UPDATE: &[Field] = &updatable::<6>(ORGANIZATION_CREATE, &["urn"]);

/// Organizations (production.md §2.8): any signed-in caller creates and changes them; nobody
/// deletes one (production has no route: a bare 405). A read answers `{urn, id, title,
/// description, url, contact_email, image_url, created_at, updated_at}`: `status` is taken and
/// stored (a deleted one leaves the lists) but never answered, and no creator is recorded.
pub const ORGANIZATIONS: Collection = Collection {
    path: "organizations",
    singular: "Organization",
    plural: "Organizations",
    identifier: IdentifierKind::Urn {
        urn_type: "organization",
    },
    parent: None,
    create: ORGANIZATION_CREATE,
    update: ORGANIZATION_UPDATE,
    service_set: &[STAMPS[0], STAMPS[2], STAMPS[3]],
    derived: &[],
    defaults: &[("status", "active")],
    starts: &[],
    record_type: None,
    clearable: &[],
    advised: &[],
    provenance: &[],
    write_only: &["status"],
    frozen_when: &[],
    routes: Routes {
        list: Offered::Production,
        search: Offered::Production,
        search_get: Offered::Absent,
        search_narrows: true,
        put: Offered::InterfaceOnly,
        enhance: Offered::Absent,
        children: Offered::Absent,
        delete: Offered::Absent,
        // Production declares `OrganizationAutocompleteSchema` but mounts no route: `GET
        // organizations/autocomplete` reads as the organization `autocomplete`, a 404 envelope
        // (production.md §10.7). The reference service serves the schema's items.
        autocomplete: Autocomplete {
            offered: Offered::InterfaceOnly,
            item: &["urn", "title", "url"],
            works_in_production: false,
        },
    },
    // Nobody deletes or enhances one: no route serves it (`routes.delete` is absent).
    roles: Roles {
        create: WriteRoles::AnySignedIn,
        update: WriteRoles::AnySignedIn,
        delete: NOBODY,
        enhance: NOBODY,
    },
    read_rule: ReadRule::Always,
};
