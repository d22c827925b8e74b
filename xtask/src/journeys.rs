//! The Playwright journeys of `cargo xtask test`: the `dist` console served by larder-server on
//! both wires, then production's own households service (`cargo xtask realprod`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::playwright::{run_logged, PLAYWRIGHT_DIST};
use crate::process::{root, Server};

/// Where the journeys' console is hosted: a sub-path, as a CDN operator may host it, so links,
/// redirects and deep links are checked to stay under it (`LARDER_E2E_PREFIX=/` runs them at the
/// root instead).
const E2E_PREFIX: &str = "/console/";

pub fn e2e_prefix() -> String {
    crate::dist::normalise_public_url(
        &std::env::var("LARDER_E2E_PREFIX").unwrap_or_else(|_| E2E_PREFIX.to_string()),
    )
}

/// The journeys that run a third time, against production's own households service (issue 22):
/// household, member and profile journeys, sessions and their renewal, refusals, and what only
/// it shows (`realprod.spec.ts`: a token that really expires, stamps without a zone).
/// Playwright reads these as patterns over a spec's whole path, so each names its folder (a
/// checkout under, say, `/work/wt-realprod` would otherwise match every spec). The owners' and
/// export journeys (`household-owners`, `household-export`) are not among them: they arm faults
/// through `/__faults` and use demo accounts that production's service does not have; nor are
/// the audit and picture journeys (`household-audit`, `household-pictures`, demo accounts).
/// `household-profile` (profile keys as production's front end writes them, and allergens) and
/// the meal plans, library and export-with-plans journeys (`household-plans`) are (issue 38), and
/// so is the restore from a household file (`household-restore`, issue 41; its fault journey, which
/// needs `/__faults`, does not run there).
pub const REALPROD_JOURNEYS: &[&str] = &[
    "e2e/household\\.spec",
    "e2e/household-admin",
    "e2e/household-plans",
    "e2e/household-profile",
    "e2e/household-restore",
    "e2e/session",
    "e2e/realprod\\.spec",
];

/// The journeys that run a second time against `larder-server --wire production`: every
/// knowledge-base, household and sign-in journey (issue 12).
/// (Patterns over the whole path, so each names its folder: see [`REALPROD_JOURNEYS`].)
const PRODUCTION_WIRE_JOURNEYS: &[&str] = &[
    "e2e/records-",
    "e2e/household",
    "e2e/sign-in",
    "e2e/first-load",
    "e2e/maintenance",
    "e2e/status",
    "e2e/overview",
];

/// The tag of journeys that ask the service for static files only, so one wire tells all: they
/// run beside the production wire (which has [`PRODUCTION_WIRE_JOURNEYS`]' specs and time to
/// spare), not on the reference wire, the longest of the runs.
const ONE_WIRE_TAG: &str = "@one-wire";

/// Every journey against the reference wire, and at the same time the production wire's
/// journeys followed by production's own service. Each run has its own server, browser and
/// output folder; the runs mostly wait on their browsers and servers, so on two cores the two
/// side by side take little longer than the longer one alone (the stage times show it).
/// Production's own service starts at once, beside both wires: on a fresh machine its start
/// (a virtual environment from PyPI, PostgreSQL, the identity stand-in) took about a minute,
/// which the production wire's journeys now hide.
/// Without a realprod directory (`cargo xtask test --realprod DIR`), the two wires only.
pub fn both_wires_then_realprod(server: &Path, realprod: Option<&Path>) -> Result<()> {
    std::thread::scope(|scope| {
        let stack = realprod.map(|dir| scope.spawn(move || crate::realprod::Stack::start(dir)));
        let reference = scope.spawn(|| wire(server, "reference"));
        let production = scope.spawn(move || -> Result<()> {
            let wire_result = wire(server, "production");
            let Some(stack) = stack else {
                eprintln!(
                    "production's own households service: not run (`cargo xtask test --realprod \
                     DIR` runs it; CI does)"
                );
                return wire_result;
            };
            let stack = stack
                .join()
                .map_err(|_| anyhow::anyhow!("starting production's own service panicked"))?;
            wire_result?;
            realprod_on(stack?, &[])
        });
        let reference = reference
            .join()
            .map_err(|_| anyhow::anyhow!("the reference wire's run panicked"))?;
        let production = production
            .join()
            .map_err(|_| anyhow::anyhow!("the production wire's run panicked"))?;
        // Both runs finish before either failure is reported, so neither log is cut short.
        reference.and(production)
    })
}

/// `cargo xtask journeys [--wire W] [--build] [SPEC...]`: chosen journeys (all when none) against
/// one larder-server wire (`reference` by default), on the journeys' console build, which is
/// built first when missing or when `--build` asks for it; the identity provider's journeys
/// (`tests/e2e/oidc-*.spec.ts`) with the provider started for them. For working on a feature; `cargo
/// xtask test` runs every journey on both wires.
pub fn chosen(args: &[String]) -> Result<()> {
    let mut wire_name = "reference".to_string();
    let mut build = false;
    let mut specs = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--wire" => wire_name = args.next().context("--wire needs a name")?.clone(),
            "--build" => build = true,
            spec => specs.push(spec.to_string()),
        }
    }
    if !matches!(wire_name.as_str(), "reference" | "production") {
        bail!("--wire is `reference` or `production`, not `{wire_name}`");
    }
    if build || !root().join(PLAYWRIGHT_DIST).join("index.html").is_file() {
        crate::dist::build(PLAYWRIGHT_DIST, Some(&e2e_prefix()))?;
    }
    crate::process::exec(&mut crate::process::command(
        "cargo",
        &["build", "--package", "larder-server"],
    ))?;
    let server = root().join("target/debug/larder-server");
    // The identity provider's journeys run beside it (`crate::oidc`): started only when one of
    // them is asked for, or when every journey is.
    let (oidc_specs, wire_specs): (Vec<String>, Vec<String>) = specs
        .into_iter()
        .partition(|spec| crate::oidc::needs_provider(spec));
    let everything = oidc_specs.is_empty() && wire_specs.is_empty();
    if everything || !wire_specs.is_empty() {
        run_wire(&server, &wire_name, Some(&wire_specs))?;
    }
    if everything || !oidc_specs.is_empty() {
        crate::oidc::journeys(&server, &oidc_specs)?;
    }
    Ok(())
}

/// The `dist` build (its start inside the page, strict Content-Security-Policy) served by `server` under
/// the prefix above, driven by Playwright in Debian's Chromium against one wire.
fn wire(server: &Path, wire: &str) -> Result<()> {
    run_wire(server, wire, None)
}

/// [`wire`], with the journeys `specs` when given (every one of the wire's otherwise).
fn run_wire(server: &Path, wire: &str, specs: Option<&[String]>) -> Result<()> {
    let started = Instant::now();
    let prefix = e2e_prefix();
    let server = Server::start(
        server,
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--demo",
            "--wire",
            wire,
            "--static",
            PLAYWRIGHT_DIST,
            "--static-prefix",
            &prefix,
            // The fault journeys arm faults through /__faults.
            "--fault-injection",
            // A guest (production's role for people without a free account), whose daily
            // budget the maintenance journeys spend through /__faults.
            "--user",
            "guest:guest-demo:guest",
            // A guest who keeps their account in the account journey (the claim renames it,
            // so no other journey signs in as gus).
            "--user",
            "gus:gus-demo-pass:guest",
        ],
    )?;
    let base_url = format!("{}{prefix}", server.url);
    let mut args = vec!["playwright", "test"];
    match specs {
        Some(specs) if !specs.is_empty() => args.extend(specs.iter().map(String::as_str)),
        _ if wire == "production" => args.extend_from_slice(PRODUCTION_WIRE_JOURNEYS),
        _ => args.extend_from_slice(&["--grep-invert", ONE_WIRE_TAG]),
    }
    let result = run_logged(&args, &base_url, wire, &format!("journeys-{wire}"), &[]);
    eprintln!(
        "journeys against the {wire} wire took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    result
}

/// `cargo xtask realprod [--realprod DIR] [SPEC...]`: `specs` (all of [`REALPROD_JOURNEYS`]
/// when none) against production's own households service: the Playwright step's console build
/// behind `proxy.py`, `LARDER_WIRE=realprod`. Fails when the service cannot start; stops it
/// whatever the journeys do.
pub fn realprod(args: &[String]) -> Result<()> {
    let mut named = None;
    let mut specs = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--realprod" => {
                named = Some(PathBuf::from(
                    args.next().context("--realprod needs a directory")?,
                ))
            }
            spec => specs.push(spec.to_string()),
        }
    }
    let prefix = e2e_prefix();
    if !root().join(PLAYWRIGHT_DIST).join("index.html").is_file() {
        crate::dist::build(PLAYWRIGHT_DIST, Some(&prefix))?;
    }
    let dir = crate::realprod::directory(named.as_deref());
    realprod_on(crate::realprod::Stack::start(&dir)?, &specs)
}

/// [`realprod`] on a stack already started.
fn realprod_on(stack: crate::realprod::Stack, specs: &[String]) -> Result<()> {
    let started = Instant::now();
    let prefix = e2e_prefix();
    let site = crate::realprod::site(&root().join(PLAYWRIGHT_DIST), &prefix)?;
    let proxy = crate::realprod::Proxy::start(&stack, &site)?;
    let base_url = format!("{}{prefix}", proxy.url);
    let mut args = vec!["playwright", "test"];
    if specs.is_empty() {
        args.extend_from_slice(REALPROD_JOURNEYS);
    } else {
        args.extend(specs.iter().map(String::as_str));
    }
    let journeys = run_logged(&args, &base_url, "realprod", "journeys-realprod", &[]);
    drop(proxy);
    drop(stack);
    eprintln!(
        "realprod: journeys and stop took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    journeys
}
