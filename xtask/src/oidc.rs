//! The journeys' identity provider (issue 42): `tests/oidc/provider.mjs`, panva's certified
//! `oidc-provider` shaped like production's Keycloak, started on a free port and stopped when
//! dropped, also when a journey fails. Its issuer is named `localhost` while consoles run on
//! `127.0.0.1`, so the two are different sites, as production's are.
//!
//! `cargo xtask oidc [SPEC...]` runs the journeys that need it (`tests/e2e/oidc-*.spec.ts`, with
//! `LARDER_WIRE=oidc` and `OIDC_ISSUER`): the console build and the carrier probe, served by
//! larder-server `--static` with `--oidc-issuer`. `cargo xtask test` runs it after the journeys.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::process::{root, Server};

/// The console's client ID at the provider (its `--client-id` default).
pub const CLIENT_ID: &str = "larder-console";

/// Where the provider journeys' site is laid out.
const SITE: &str = "target/oidc-site";

/// The journeys that need the provider (Playwright patterns over a spec's whole path).
const OIDC_JOURNEYS: &[&str] = &["e2e/oidc-"];

/// Whether the journey `spec` (a path or a Playwright pattern) needs the provider.
pub fn needs_provider(spec: &str) -> bool {
    spec.rsplit('/')
        .next()
        .is_some_and(|name| name.starts_with("oidc-"))
}

/// A running provider.
pub struct Provider {
    child: Child,
    /// `http://localhost:PORT`: the issuer exactly as its tokens name it.
    pub issuer: String,
}

impl Provider {
    /// Starts the provider for the consoles at `consoles` (each registered exactly as a redirect
    /// and post-logout redirect URI, and allowed to call its token endpoint), with its test-only
    /// signing endpoint (`POST /_test/sign`) when `sign_endpoint`, and waits for its issuer.
    pub fn start(consoles: &[&str], sign_endpoint: bool) -> Result<Provider> {
        let script = root().join("tests/oidc/provider.mjs");
        // A fresh clone has no node_modules: `npm ci` from package-lock.json, as setup does.
        if !root()
            .join("node_modules/oidc-provider/package.json")
            .is_file()
        {
            crate::setup::npm_packages(&mut Vec::new())?;
        }
        let mut command = Command::new("node");
        command.arg(&script).args(["--port", "0"]);
        for console in consoles {
            command.args(["--console", console]);
        }
        if sign_endpoint {
            command.arg("--sign-endpoint");
        }
        eprintln!(
            "$ node {} (consoles: {})",
            script.display(),
            consoles.join(", ")
        );
        let mut child = command
            .current_dir(root())
            .stdout(Stdio::piped())
            // Its two expected warnings (Node 20, the in-memory adapter) and any error.
            .stderr(Stdio::inherit())
            .spawn()
            .context("could not start node (cargo xtask setup installs it)")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(issuer) = line.strip_prefix("OIDC_ISSUER=") {
                    let _ = sender.send(issuer.trim().to_string());
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(issuer) = receiver.recv_timeout(Duration::from_millis(200)) {
                eprintln!("the identity provider is up at {issuer}");
                return Ok(Provider { child, issuer });
            }
            if let Some(status) = child.try_wait()? {
                bail!(
                    "the identity provider exited before listening ({status}); are the npm \
                     packages installed (cargo xtask setup)?"
                );
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                bail!("the identity provider did not start within 30 s");
            }
        }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free port on 127.0.0.1 (the provider must know the console's address before the console's
/// server can be told the provider's).
pub fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// The provider journeys' site: the journeys' console build (when built) with a config.json
/// naming the provider, its page's policy letting the provider in as an operator's would
/// (README, Hosting), and the carrier probe under `probe/` (tests/oidc/probe).
fn site(issuer: &str) -> Result<PathBuf> {
    site_of(
        &root().join(crate::playwright::PLAYWRIGHT_DIST),
        issuer,
        SITE,
    )
}

/// [`site`] from the build in `dist`, laid out in `folder` (the bench's release build too).
pub fn site_of(dist: &Path, issuer: &str, folder: &str) -> Result<PathBuf> {
    let site = root().join(folder);
    if site.exists() {
        std::fs::remove_dir_all(&site).with_context(|| format!("clearing {}", site.display()))?;
    }
    std::fs::create_dir_all(&site)?;
    if dist.join("index.html").is_file() {
        link_tree(dist, &site)?;
        for page in ["index.html", "404.html"] {
            let path = site.join(page);
            let html = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            // A new file, not the linked one: the build stays as it is.
            std::fs::remove_file(&path)?;
            std::fs::write(&path, admit_provider(&html, issuer))?;
            for compressed in ["br", "gz"] {
                let _ = std::fs::remove_file(site.join(format!("{page}.{compressed}")));
            }
        }
    }
    let config = serde_json::json!({"oidc": {"issuer": issuer, "client_id": CLIENT_ID}});
    let worker = root().join("crates/start/js/oidc-worker.js");
    if !site.join("oidc-worker.js").exists() {
        std::fs::copy(&worker, site.join("oidc-worker.js")).context("copying oidc-worker.js")?;
    }
    std::fs::write(site.join("config.json"), config.to_string())?;
    let probe_site = site.join("probe");
    std::fs::create_dir_all(&probe_site)?;
    let probe = root().join("tests/oidc/probe");
    for file in ["index.html", "probe.js"] {
        std::fs::copy(probe.join(file), probe_site.join(file))
            .with_context(|| format!("copying {file}"))?;
    }
    std::fs::copy(&worker, probe_site.join("oidc-worker.js")).context("copying oidc-worker.js")?;
    std::fs::write(probe_site.join("config.json"), config.to_string())?;
    Ok(site)
}

/// The page's own policy (`cargo xtask dist`'s `<meta>`) with the provider's origin in
/// `connect-src` (discovery, keys, tokens) and `form-action` (the sign-out form).
fn admit_provider(html: &str, issuer: &str) -> String {
    html.replacen(
        "connect-src 'self'",
        &format!("connect-src 'self' {issuer}"),
        1,
    )
    .replacen(
        "form-action 'self'",
        &format!("form-action 'self' {issuer}"),
        1,
    )
}

/// Hard links of every file under `from` in `to` (the build is tens of megabytes).
fn link_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            link_tree(&entry.path(), &target)?;
        } else if std::fs::hard_link(entry.path(), &target).is_err() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// A demo larder-server (`binary`) at `addr` serving `site` under `prefix`, accepting the tokens
/// of the provider at `issuer` beside its own sign-in.
pub fn serve_site(
    binary: &Path,
    addr: &str,
    site: &Path,
    prefix: &str,
    issuer: &str,
) -> Result<Server> {
    let site = site.to_str().context("a site path that is not UTF-8")?;
    Server::start(
        binary,
        &[
            "--addr",
            addr,
            "--db",
            ":memory:",
            "--demo",
            "--static",
            site,
            "--static-prefix",
            prefix,
            "--oidc-issuer",
            issuer,
        ],
    )
}

/// `cargo xtask oidc [SPEC...]`: the provider's journeys (all of them when none is named), with
/// the debug larder-server built first.
pub fn run(specs: &[String]) -> Result<()> {
    crate::process::exec(&mut crate::process::command(
        "cargo",
        &["build", "--package", "larder-server"],
    ))?;
    journeys(&root().join("target/debug/larder-server"), specs)
}

/// The provider's journeys against `server` (a larder-server binary): the provider, the server
/// hosting the probe under `/console/` with `--oidc-issuer`, then Playwright; all stopped after.
pub fn journeys(server: &Path, specs: &[String]) -> Result<()> {
    let started = Instant::now();
    let port = free_port()?;
    let base_url = format!("http://127.0.0.1:{port}/console/");
    let probe_url = format!("{base_url}probe/");
    let provider = Provider::start(&[&base_url, &probe_url], true)?;
    let site = site(&provider.issuer)?;
    let server = serve_site(
        server,
        &format!("127.0.0.1:{port}"),
        &site,
        "/console/",
        &provider.issuer,
    )?;
    let mut args = vec!["playwright", "test"];
    if specs.is_empty() {
        args.extend_from_slice(OIDC_JOURNEYS);
    } else {
        args.extend(specs.iter().map(String::as_str));
    }
    let result = crate::playwright::run_logged(
        &args,
        &base_url,
        "oidc",
        "journeys-oidc",
        &[("OIDC_ISSUER", provider.issuer.as_str())],
    );
    drop(server);
    drop(provider);
    eprintln!(
        "the identity provider's journeys took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    result
}
