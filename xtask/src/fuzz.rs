//! `cargo xtask fuzz [--cases N]`: the property tests run long, in an optimised build (the server's profile). Every
//! property (five over the client's decoders and error interpretation, one over the server's
//! request parsing, one comparing the search index with a full scan) gets N cases, one million
//! by default, so a run tries seven million inputs.

use std::time::Instant;

use anyhow::{bail, Result};

use crate::process::{command, exec};

/// Cases per property unless `--cases` says otherwise.
const DEFAULT_CASES: u64 = 1_000_000;

pub fn run(args: &[String]) -> Result<()> {
    let cases = match args {
        [] => DEFAULT_CASES,
        [flag, value] if flag == "--cases" => value.parse()?,
        _ => bail!("usage: cargo xtask fuzz [--cases N]"),
    };
    let suites: [(&str, &str, u64); 3] = [
        ("larder-api", "properties", 5),
        ("larder-server", "parsing", 1),
        ("larder-search", "oracle", 1),
    ];
    for (package, test, properties) in suites {
        let started = Instant::now();
        eprintln!("==> {package} --test {test}: {properties} properties x {cases} cases");
        exec(
            command(
                "cargo",
                &[
                    "test",
                    // Optimised with unwinding: a panic must be reported, not abort the run.
                    "--profile",
                    "server",
                    "--package",
                    package,
                    "--test",
                    test,
                    "--",
                    "--test-threads",
                    "2",
                ],
            )
            .env("LARDER_FUZZ_CASES", cases.to_string()),
        )?;
        eprintln!(
            "<== {package}: {} cases without a failure in {:.0} s",
            properties * cases,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
