//! Issue 42's figures on the phone line, in one run: a bookmark opened while the identity
//! provider's session lives comes back signed in through the silent sign-in (`prompt=none`, a
//! top-level redirect there and back); a new tab beside a signed-in one takes its session over
//! the tabs' channel; and, beside them, a password sign-in on the console without a provider and
//! on the one with it (whose every load first asks the provider). The provider is the journeys'
//! (`tests/oidc/provider.mjs`), the console the bench's release build with config.json's `oidc`,
//! served by a larder-server of its own with `--oidc-issuer`.

use std::path::Path;

use anyhow::Result;

use super::pages::{browser, numbers, violations};
use super::Figure;
use crate::oidc::{free_port, serve_site, site_of, Provider};

/// Where the bench lays out its provider site.
const SITE: &str = "target/bench/oidc-site";

/// The figures; `plain_console` is the bench's console without a provider, `binary` the
/// larder-server to serve the one with it.
pub fn figures(
    dist: &Path,
    base: &str,
    plain_console: &str,
    binary: &Path,
    runs: usize,
) -> Result<Vec<Figure>> {
    let addr = format!("127.0.0.1:{}", free_port()?);
    let console = format!("http://{addr}{base}");
    let provider = Provider::start(&[&console], false)?;
    let site = site_of(dist, &provider.issuer, SITE)?;
    let issuer = provider.issuer.as_str();
    let server = serve_site(binary, &addr, &site, base, issuer)?;
    let host = issuer.trim_start_matches("http://").trim_end_matches('/');
    let runs = runs.to_string();
    let result = browser(&[
        "silent",
        &console,
        plain_console,
        host,
        &runs,
        "admin",
        "admin-demo",
    ]);
    drop(server);
    drop(provider);
    let result = result?;
    violations(&result)?;
    let plain = Figure::new(
        "password sign-in, phone line: page opened → signed in (no provider)",
        "ms",
        numbers(&result["password_plain"]),
    );
    Ok(vec![
        Figure::new(
            "back without a password, phone line: bookmark opened → signed in (silent prompt=none round trip)",
            "ms",
            numbers(&result["silent"]),
        )
        .versus(&plain)
        .note("the provider's session alive, no console tab open; fresh browser each run"),
        Figure::new(
            "new tab beside one signed in by password, phone line: opened → signed in (tabs' channel, no provider)",
            "ms",
            numbers(&result["handed"]),
        )
        .versus(&plain),
        Figure::new(
            "password sign-in, phone line, console with a provider: page opened → signed in",
            "ms",
            numbers(&result["password_oidc"]),
        )
        .versus(&plain)
        .note("its load first asks the provider, which finds no session"),
        plain.note("typing takes no time; the same run"),
    ])
}
