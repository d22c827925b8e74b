//! Clippy's lints inside the test builds: `cargo xtask test` compiles the workspace's crates
//! once, for its tests and its lints together, instead of a `cargo clippy` beside each test
//! build.
//!
//! `cargo clippy` is `cargo check` with clippy-driver as the workspace's compiler wrapper and
//! its arguments in `CLIPPY_ARGS`. A check builds every dependency a second time, as metadata
//! only, which the test build cannot reuse: on two cores that was 73 s natively and 66 s for
//! wasm32 on their own, and about 240 s in a fresh CI run beside the release build (issue 24).
//! Set on the test build instead, the same wrapper lints the same crates (dependencies are
//! never linted, as with `cargo clippy`) while they are compiled for real: 120 s against 184 s
//! natively, 102 s against 128 s for wasm32.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use anyhow::{bail, Context, Result};

use crate::process::{command, output, root};

/// What `cargo clippy -- -D warnings` hands clippy-driver (clippy's own separator).
const DENY_WARNINGS: &str = "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__";

/// The toolchain's clippy-driver, found once.
fn clippy_driver() -> Result<&'static PathBuf> {
    static DRIVER: OnceLock<Option<PathBuf>> = OnceLock::new();
    DRIVER
        .get_or_init(|| output("rustup", &["which", "clippy-driver"]).map(PathBuf::from))
        .as_ref()
        .context("clippy-driver not found: `rustup component add clippy`")
}

/// `cargo` with `args`, its workspace crates compiled through clippy with `-D warnings`.
pub fn linted_cargo(args: &[&str]) -> Result<Command> {
    let mut cargo = command("cargo", args);
    cargo
        .env("RUSTC_WORKSPACE_WRAPPER", clippy_driver()?)
        .env("CLIPPY_ARGS", DENY_WARNINGS);
    Ok(cargo)
}

/// Fails unless clippy-driver, handed `CLIPPY_ARGS` as above, refuses a clippy warning: the
/// variable is clippy's protocol with its cargo subcommand, so a toolchain that changed it
/// would otherwise let every lint pass unseen.
pub fn check_the_wrapper() -> Result<()> {
    let dir = root().join("target/ci/lint-probe");
    std::fs::create_dir_all(&dir)?;
    let probe = dir.join("probe.rs");
    // `clippy::len_zero`, a warning by default: denied only through CLIPPY_ARGS.
    std::fs::write(
        &probe,
        "pub fn empty(items: &[u8]) -> bool {\n    items.len() == 0\n}\n",
    )?;
    let run = Command::new(clippy_driver()?)
        .args([
            "rustc",
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit",
            "metadata",
        ])
        .arg("--out-dir")
        .arg(&dir)
        .arg(&probe)
        .env("CLIPPY_ARGS", DENY_WARNINGS)
        .output()
        .context("running clippy-driver")?;
    let said = String::from_utf8_lossy(&run.stderr);
    if run.status.success() || !said.contains("len_zero") {
        bail!(
            "clippy-driver did not refuse `clippy::len_zero` with CLIPPY_ARGS set, so the test \
             builds would not lint: run `cargo clippy --workspace --all-targets -- -D warnings` \
             and report this toolchain's change.\n{said}"
        );
    }
    Ok(())
}
