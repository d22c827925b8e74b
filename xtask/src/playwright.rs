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
            "the journeys against {wire} failed ({status}); see {}\n{}",
            log.display(),
            failures(&text)
        );
    }
    Ok(())
}

/// The most a failure summary keeps of a log, in lines.
const FAILURE_LINES: usize = 160;

/// Playwright's own account of what failed (from its first numbered failure, `  1) …`, to the
/// end), at most [`FAILURE_LINES`] lines: it goes into the error, which `cargo xtask test` prints
/// last, so a CI log cut to its tail still says which journey failed and why even when another
/// run's log was printed after this one.
fn failures(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let first = lines
        .iter()
        .position(|line| {
            let line = line.trim_start();
            line.starts_with("1) ") && line.contains(".spec.ts")
        })
        .unwrap_or(lines.len().saturating_sub(40));
    let shown = &lines[first..];
    let kept = shown.len().min(FAILURE_LINES);
    let mut summary = shown[..kept].join("\n");
    if kept < shown.len() {
        summary.push_str(&format!("\n… {} more lines in the log", shown.len() - kept));
    }
    summary
}

/// `target/ci/<name>.log`, its folder made.
pub fn log_path(name: &str) -> Result<PathBuf> {
    let folder = root().join(LOGS);
    std::fs::create_dir_all(&folder)?;
    Ok(folder.join(format!("{name}.log")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_summary_starts_at_the_first_failure_and_is_bounded() {
        let mut log = String::from("  ✓  1 a.spec.ts › fine\n  ✘  2 b.spec.ts › broken\n\n");
        log.push_str("  1) tests/e2e/b.spec.ts:3:1 › broken ───\n    Error: expected 1\n");
        log.push_str("  1 failed\n  1 passed\n");
        let summary = failures(&log);
        assert!(summary.starts_with("  1) tests/e2e/b.spec.ts"), "{summary}");
        assert!(summary.ends_with("  1 passed"), "{summary}");

        let long: String = (0..500).map(|n| format!("line {n}\n")).collect();
        let summary = failures(&format!("  1) tests/e2e/c.spec.ts:1:1 › x\n{long}"));
        assert_eq!(summary.lines().count(), FAILURE_LINES + 1);
        assert!(summary.ends_with("more lines in the log"), "{summary}");
    }
}
