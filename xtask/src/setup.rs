//! Installs what the project needs and is missing; skips what is there at the right version.
//! trunk is not among them: only `trunk serve`'s development loop uses it (docs/hosting.md,
//! Development builds).

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::process::{command, exec, output, root};

/// Runs every step and returns what it installed. wasm-bindgen-cli compiles for minutes on two
/// cores while the browser and npm packages mostly download: they install side by side.
pub fn run() -> Result<Vec<String>> {
    let mut installed = Vec::new();
    wasm_target(&mut installed)?;
    let mut downloaded = Vec::new();
    std::thread::scope(|scope| {
        let downloads = scope.spawn(|| -> Result<()> {
            browser(&mut downloaded)?;
            npm_packages(&mut downloaded)
        });
        let compiled = wasm_bindgen_cli(&mut installed);
        let downloads = downloads
            .join()
            .map_err(|_| anyhow::anyhow!("the browser and npm install panicked"))?;
        compiled.and(downloads)
    })?;
    installed.extend(downloaded);
    if installed.is_empty() {
        eprintln!("setup: every tool is present at the right version");
    } else {
        eprintln!("setup: installed {}", installed.join(", "));
    }
    Ok(installed)
}

/// Adds the wasm32 target when rustup lacks it (also called before setup by `cargo xtask test`,
/// which starts the console's compile at once).
pub fn wasm_target(installed: &mut Vec<String>) -> Result<()> {
    let targets = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !targets
        .lines()
        .any(|t| t.trim() == "wasm32-unknown-unknown")
    {
        exec(&mut command(
            "rustup",
            &["target", "add", "wasm32-unknown-unknown"],
        ))?;
        installed.push("the wasm32-unknown-unknown target".into());
    }
    Ok(())
}

/// The CLI must equal the wasm-bindgen version Cargo.lock pins.
fn wasm_bindgen_cli(installed: &mut Vec<String>) -> Result<()> {
    let version = locked_version("wasm-bindgen")?;
    let want = format!("wasm-bindgen {version}");
    let have_cli = output("wasm-bindgen", &["--version"]).as_deref() == Some(want.as_str());
    let have_runner =
        output("wasm-bindgen-test-runner", &["--version"]).is_some_and(|v| v.ends_with(&version));
    if !(have_cli && have_runner) {
        // Without --locked: the CLI's own lockfile pins a crate release this registry lacks.
        // Unoptimised (level 0): alone on this machine its compile took 54 s against 127 s at
        // level 1 (2026-11-27, 19:40 UTC). Its runs are slower but short since the test modules
        // carry line tables only: 5.8 s against 1.8 s over the four wasm test modules and the
        // start-up module, and the wasm tests' whole run 27 s against 25 s. (At level 0 with
        // full debug information in the test modules, one 39 MB module took 13.8 s.) Without
        // its default feature, TLS (rustls and ring): the test runner talks plain HTTP to
        // ChromeDriver and its own server on this machine.
        exec(
            command(
                "cargo",
                &[
                    "install",
                    "--force",
                    "wasm-bindgen-cli",
                    "--version",
                    &version,
                    "--no-default-features",
                ],
            )
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0"),
        )?;
        installed.push(format!("wasm-bindgen-cli {version}"));
    }
    Ok(())
}

/// The version of `package` in Cargo.lock.
pub fn locked_version(package: &str) -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).context("reading Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{package}\"") {
            if let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
            {
                return Ok(version.trim_end_matches('"').to_string());
            }
        }
    }
    bail!("{package} is not in Cargo.lock")
}

fn is_root() -> bool {
    output("id", &["-u"]).as_deref() == Some("0")
}

fn apt_install(packages: &[&str], installed: &mut Vec<String>) -> Result<()> {
    if !is_root() {
        bail!(
            "missing Debian packages: run `sudo apt-get install -y {}` and try again",
            packages.join(" ")
        );
    }
    exec(command("apt-get", &["update", "-qq"]).env("DEBIAN_FRONTEND", "noninteractive"))?;
    let mut args = vec!["install", "-y", "-qq", "--no-install-recommends"];
    args.extend_from_slice(packages);
    exec(command("apt-get", &args).env("DEBIAN_FRONTEND", "noninteractive"))?;
    installed.extend(packages.iter().map(|p| p.to_string()));
    Ok(())
}

fn browser(installed: &mut Vec<String>) -> Result<()> {
    let missing: Vec<&str> = [
        ("chromium", "/usr/bin/chromium"),
        ("chromium-driver", "/usr/bin/chromedriver"),
    ]
    .into_iter()
    .filter(|(_, path)| !Path::new(path).exists())
    .map(|(package, _)| package)
    .collect();
    if !missing.is_empty() {
        apt_install(&missing, installed)?;
    }
    Ok(())
}

/// Playwright, the journeys' identity provider (oidc-provider), binaryen (wasm-opt) and terser
/// from package-lock.json.
pub(crate) fn npm_packages(installed: &mut Vec<String>) -> Result<()> {
    if output("npm", &["--version"]).is_none() {
        apt_install(&["nodejs", "npm"], installed)?;
    }
    let lock =
        std::fs::read(root().join("package-lock.json")).context("reading package-lock.json")?;
    let marker = root().join("node_modules/.larder-lock");
    if std::fs::read(&marker).ok().as_deref() != Some(lock.as_slice()) {
        exec(&mut command("npm", &["ci", "--no-audit", "--no-fund"]))?;
        std::fs::write(&marker, &lock)?;
        installed
            .push(
                "npm packages (@playwright/test, @axe-core/playwright, oidc-provider, binaryen, terser)"
                    .into(),
            );
    }
    Ok(())
}
