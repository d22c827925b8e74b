//! The bench's built-in peer: a minimal Refine login app (`xtask/peers/refine`), built from the
//! npm registry when missing or stale and served by the bench's larder-server inside the
//! console's folder (as `floor.html` is), so all three apps share one server, one origin, one
//! Content-Security-Policy and the same precompression.
//!
//! Its dependencies live in its own folder's `node_modules` (ignored by git): the project's own
//! `npm ci` never installs Refine.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result};

use crate::process::{command, exec, root};

/// The peer's sources (package.json, package-lock.json, index.html, vite.config.ts, src/).
const SOURCE: &str = "xtask/peers/refine";
/// Where vite writes the build.
const BUILD: &str = "target/bench/peers/refine";
/// The peer's path under the console's folder, and so under the server's root.
pub const SERVED_AT: &str = "peers/refine/";
/// The name its figures carry (`start (...): refine, sign-in works`).
pub const NAME: &str = "refine";

/// Builds the peer if needed and copies it into `dist` under [`SERVED_AT`], with a `.gz` and a
/// `.br` beside each file like the console's.
pub fn prepare(dist: &Path) -> Result<()> {
    let source = root().join(SOURCE);
    let build = root().join(BUILD);
    let base = format!("/{SERVED_AT}");
    install(&source)?;
    let stamp = root().join(format!("{BUILD}.stamp"));
    let built_for = std::fs::read_to_string(&stamp).unwrap_or_default();
    let inputs = newest(&inputs(&source)?);
    if built_for != base || !build.join("index.html").exists() || is_stale(inputs, modified(&stamp))
    {
        eprintln!("\n==> the Refine peer's build (vite, base {base})");
        let vite = source.join("node_modules/.bin/vite");
        exec(
            command(vite.to_str().context("path")?, &["build", "--base", &base])
                .args(["--outDir", build.to_str().context("path")?, "--emptyOutDir"])
                .current_dir(&source)
                .stdout(to_stderr()),
        )?;
        std::fs::write(&stamp, &base)?;
    }
    let served = dist.join(SERVED_AT);
    if served.exists() {
        std::fs::remove_dir_all(&served)?;
    }
    crate::files::copy_tree(&build, &served)?;
    crate::dist::precompress(&served)
}

/// `npm ci` in the peer's folder when its `node_modules` is missing or older than its lock file.
/// `--ignore-scripts`: no package's install script runs (none is needed; vite's native bundler
/// arrives as an npm package for this platform, nothing is downloaded from elsewhere).
fn install(source: &Path) -> Result<()> {
    let installed = modified(&source.join("node_modules/.package-lock.json"));
    if !is_stale(modified(&source.join("package-lock.json")), installed) {
        return Ok(());
    }
    eprintln!("\n==> the Refine peer's packages (npm ci in {SOURCE})");
    exec(
        command(
            "npm",
            &["ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        )
        .current_dir(source)
        .stdout(to_stderr()),
    )
}

/// The tools' progress goes where the bench's goes: stdout is the table's alone.
fn to_stderr() -> std::process::Stdio {
    std::io::stderr().into()
}

/// Whether something made from inputs last changed at `inputs` is missing (`None`) or older.
fn is_stale(inputs: Option<SystemTime>, made: Option<SystemTime>) -> bool {
    match (inputs, made) {
        (_, None) => true,
        (Some(inputs), Some(made)) => inputs > made,
        (None, Some(_)) => false,
    }
}

/// The files the build reads: everything in the folder but its `node_modules`.
fn inputs(source: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(source)? {
        let path = entry?.path();
        if path.file_name().is_some_and(|n| n == "node_modules") {
            continue;
        }
        if path.is_dir() {
            crate::files::walk(&path, &mut files)?;
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

fn newest(files: &[PathBuf]) -> Option<SystemTime> {
    files.iter().filter_map(|f| modified(f)).max()
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::is_stale;
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_build_is_stale_when_missing_or_older_than_its_inputs() {
        let then = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let later = then + Duration::from_secs(1);
        assert!(is_stale(Some(then), None));
        assert!(is_stale(None, None));
        assert!(is_stale(Some(later), Some(then)));
        assert!(!is_stale(Some(then), Some(later)));
        assert!(!is_stale(Some(then), Some(then)));
        assert!(!is_stale(None, Some(then)));
    }
}
