//! Running Playwright: the console build the journeys drive, and one run's whole output kept in
//! its own log (used by the journeys of both wires, realprod's and the identity provider's).

use std::path::PathBuf;
use std::process::Stdio;

use anyhow::{bail, Context, Result};

use crate::process::{command, root};

/// The console build the journeys drive (built beside the checks, reused by realprod's step).
pub const PLAYWRIGHT_DIST: &str = "target/playwright-dist";

/// Where each run's whole Playwright output goes while the runs share the terminal.
const LOGS: &str = "target/ci";

/// Runs `npx args` against `base_url` (with `env` besides) with its whole output in
/// `target/ci/<name>.log`, then prints that log in one piece (two runs' lines interleaved would
/// be unreadable).
pub(crate) fn run_logged(
    args: &[&str],
    base_url: &str,
    wire: &str,
    name: &str,
    env: &[(&str, &str)],
) -> Result<()> {
    let log = log_path(name)?;
    let file =
        std::fs::File::create(&log).with_context(|| format!("creating {}", log.display()))?;
    eprintln!(
        "$ npx {} (LARDER_WIRE={wire}; output in {})",
        args.join(" "),
        log.display()
    );
    let status = command("npx", args)
        .env("BASE_URL", base_url)
        .env("LARDER_WIRE", wire)
        .env(
            "LARDER_REALPROD_TTL",
            crate::realprod::ACCESS_TTL_SECS.to_string(),
        )
        .envs(env.iter().copied())
        .stdout(file.try_clone()?)
        .stderr(file)
        .stdin(Stdio::null())
        .status()
        .context("could not start npx playwright")?;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    eprintln!("---- {name} ----\n{text}---- end of {name} ----");
    if !status.success() {
        bail!(
            "the journeys against {wire} failed ({status}); see {}",
            log.display()
        );
    }
    Ok(())
}

/// `target/ci/<name>.log`, its folder made.
pub fn log_path(name: &str) -> Result<PathBuf> {
    let folder = root().join(LOGS);
    std::fs::create_dir_all(&folder)?;
    Ok(folder.join(format!("{name}.log")))
}
