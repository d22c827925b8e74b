//! `cargo xtask test`: every check, in order, stopping at the first failure.

use std::time::Instant;

use anyhow::{Context, Result};

use crate::process::{command, exec, root, Server};

/// A named check.
type Step = (&'static str, fn() -> Result<()>);

/// Runs setup, then each step.
pub fn run() -> Result<()> {
    let steps: [Step; 10] = [
        ("setup", || crate::setup::run().map(|_| ())),
        ("format", || {
            exec(&mut command("cargo", &["fmt", "--all", "--", "--check"]))
        }),
        ("clippy (native)", || {
            exec(&mut command(
                "cargo",
                &[
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ],
            ))
        }),
        ("clippy (wasm32)", || {
            exec(&mut command(
                "cargo",
                &[
                    "clippy",
                    "--target",
                    "wasm32-unknown-unknown",
                    "-p",
                    "larder",
                    "-p",
                    "larder-api",
                    "-p",
                    "larder-contract",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ],
            ))
        }),
        ("native tests", || {
            exec(&mut command("cargo", &["test", "--workspace"]))
        }),
        ("browser tests (wasm-bindgen-test in Chromium)", wasm_tests),
        // trunk's development build has no split step: it must keep building (`trunk serve`).
        ("unsplit development build (trunk build)", || {
            exec(&mut command(
                "trunk",
                &["build", "--offline", "--dist", "target/dev-dist"],
            ))
        }),
        ("Playwright journeys", playwright),
        (
            "Playwright journeys against production's own households service (realprod)",
            || realprod_journeys(&[]),
        ),
        ("load (32 sessions, 10 s, zero unexpected answers)", || {
            crate::load::against_binary(&debug_server()?, 10)
        }),
    ];
    for (name, step) in steps {
        let started = Instant::now();
        eprintln!("\n==> {name}");
        step().with_context(|| format!("step `{name}`"))?;
        eprintln!("<== {name}: ok in {:.0} s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

fn debug_server() -> Result<std::path::PathBuf> {
    exec(&mut command(
        "cargo",
        &["build", "--package", "larder-server"],
    ))?;
    Ok(root().join("target/debug/larder-server"))
}

/// The wasm tests call a real server; its address reaches them at compile time.
fn wasm_tests() -> Result<()> {
    let server = Server::start(
        &debug_server()?,
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--demo",
            "--cors-origin",
            "*",
            "--fault-injection",
        ],
    )?;
    exec(
        command(
            "cargo",
            &[
                "test",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                "larder-api",
                "-p",
                "larder",
            ],
        )
        .env("LARDER_TEST_SERVER", &server.url),
    )
}

/// Where the journeys' console is hosted: a sub-path, as a CDN operator may host it, so links,
/// redirects and deep links are checked to stay under it (`LARDER_E2E_PREFIX=/` runs them at the
/// root instead).
const E2E_PREFIX: &str = "/console/";

/// The console build the journeys drive (built by the Playwright step, reused by realprod's).
const PLAYWRIGHT_DIST: &str = "target/playwright-dist";

fn e2e_prefix() -> String {
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
/// through `/__faults` and use demo accounts that production's service does not have.
pub const REALPROD_JOURNEYS: &[&str] = &[
    "e2e/household\\.spec",
    "e2e/household-admin",
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
];

/// The `cargo xtask dist` build (external loader, strict Content-Security-Policy), served by the
/// server under the prefix above, driven by Playwright in Debian's Chromium: every journey against
/// the reference wire, then the knowledge-base and household journeys against the production wire.
fn playwright() -> Result<()> {
    let prefix = e2e_prefix();
    let dist = PLAYWRIGHT_DIST;
    crate::dist::build(dist, Some(&prefix))?;
    let binary = debug_server()?;
    for wire in ["reference", "production"] {
        let server = Server::start(
            &binary,
            &[
                "--addr",
                "127.0.0.1:0",
                "--db",
                ":memory:",
                "--demo",
                "--wire",
                wire,
                "--static",
                dist,
                "--static-prefix",
                &prefix,
                // The fault journeys arm faults through /__faults.
                "--fault-injection",
                // A guest (production's role for people without a free account), whose daily
                // budget the maintenance journeys spend through /__faults.
                "--user",
                "guest:guest-demo:guest",
            ],
        )?;
        let base_url = format!("{}{prefix}", server.url);
        let mut args = vec!["playwright", "test"];
        if wire == "production" {
            args.extend_from_slice(PRODUCTION_WIRE_JOURNEYS);
        }
        eprintln!("journeys against the {wire} wire");
        exec(
            command("npx", &args)
                .env("BASE_URL", &base_url)
                .env("LARDER_WIRE", wire),
        )?;
    }
    Ok(())
}

/// `specs` (all of [`REALPROD_JOURNEYS`] when empty) against production's own households
/// service: the Playwright step's console build behind `proxy.py`, `LARDER_WIRE=realprod`.
/// Fails when the service cannot start; stops it whatever the journeys do.
pub fn realprod_journeys(specs: &[String]) -> Result<()> {
    let started = Instant::now();
    let prefix = e2e_prefix();
    let dist = root().join(PLAYWRIGHT_DIST);
    if !dist.join("index.html").is_file() {
        crate::dist::build(PLAYWRIGHT_DIST, Some(&prefix))?;
    }
    let site = crate::realprod::site(&dist, &prefix)?;
    let stack = crate::realprod::Stack::start()?;
    let proxy = crate::realprod::Proxy::start(&site, &stack.base)?;
    let base_url = format!("{}{prefix}", proxy.url);
    let mut args = vec!["playwright", "test"];
    if specs.is_empty() {
        args.extend_from_slice(REALPROD_JOURNEYS);
    } else {
        args.extend(specs.iter().map(String::as_str));
    }
    eprintln!("journeys against production's own households service");
    let journeys = exec(
        command("npx", &args)
            .env("BASE_URL", &base_url)
            .env("LARDER_WIRE", "realprod")
            .env(
                "LARDER_REALPROD_TTL",
                crate::realprod::ACCESS_TTL_SECS.to_string(),
            ),
    );
    drop(proxy);
    drop(stack);
    eprintln!(
        "realprod: start, journeys and stop took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    journeys
}
