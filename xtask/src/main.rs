//! `cargo xtask`: set up the tools, serve the console, run every test.

mod bench;
#[cfg(test)]
mod circles;
mod dist;
mod files;
mod fuzz;
mod journeys;
mod lint;
mod load;
mod oidc;
mod playwright;
mod process;
mod realprod;
mod serve;
mod setup;
mod split;
mod test;

use std::time::Instant;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  setup              install what is missing: wasm target, wasm-bindgen-cli, chromium,
                     chromedriver, npm packages (skips what is there at the right version)
  serve [--port N]   build the console (release) and serve it with larder-server and demo data
  test [--realprod DIR]
                     run every check: fmt, clippy (native and wasm), native tests, browser tests,
                     journeys on both wires, load; with --realprod DIR (CI passes
                     ../shared/realprod) also the journeys against production's own households
                     service started from DIR; ends with each stage's time
  dist [--public-url /sub/path/] [--dist DIR]
                     build the static console for any host into dist/: hashed assets, an
                     external loader under a strict Content-Security-Policy, 404.html,
                     config.example.json
  bench [--runs N] [--only PART,...]
                     measure size, start, decoding and server figures; prints a table and
                     writes target/bench/report.json (see BENCH.md). Parts: first-load,
                     start, list, decode, server, download, export, plans
  bench-export CONSOLE_URL
                     the export figures only, against a server already running with
                     --demo --generate-articles 10000 (see xtask/src/bench/exports.rs)
  bench-plans CONSOLE_URL
                     Download my data of 1,000 members with 30 days of meal plans on the phone
                     line, against a server already running with --demo
  journeys [--wire reference|production] [--build] [SPEC...]
                     chosen journeys (all when none) against one larder-server wire, on the
                     journeys' console build (target/playwright-dist; built when missing or
                     with --build): for working on a feature
  oidc [SPEC...]      the journeys that need the identity provider (tests/e2e/oidc-*.spec.ts):
                     tests/oidc/provider.mjs on a free port, larder-server --oidc-issuer hosting
                     the carrier probe (tests/oidc/probe) under /console/, LARDER_WIRE=oidc
  realprod [--realprod DIR] [SPEC...]
                     the journeys against production's own households service only (the last
                     step of `test --realprod DIR`): DIR (else LARDER_REALPROD, else
                     ../shared/realprod) started on PostgreSQL,
                     the console of target/playwright-dist behind its proxy, LARDER_WIRE=realprod
  fuzz [--cases N]   the property tests (client decoders, server request parsing) with N cases
                     each, 1,000,000 by default, in an optimised build (see RELIABILITY.md)
  load [--seconds N] [--server URL]
                     32 signed-in sessions doing mixed reads and writes for N s (60) against
                     larder-server (started on a database file unless --server); throughput,
                     p50/p99, zero unexpected answers, every acknowledged write read back";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let started = Instant::now();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run().map(|_| ()),
        Some("serve") => serve::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("dist") => dist::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("realprod") => journeys::realprod(&args[1..]),
        Some("journeys") => journeys::chosen(&args[1..]),
        Some("oidc") => oidc::run(&args[1..]),
        Some("load") => load::run(&args[1..]),
        // Internal: the bench runs these in an optimised build.
        Some("bench-decode") => bench::decode_command(&args[1..]),
        Some("bench-export") => bench::export_command(&args[1..]),
        Some("bench-plans") => bench::plans_command(&args[1..]),
        Some("bench-server") => bench::server_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            return;
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    match result {
        Ok(()) => eprintln!(
            "xtask {}: done in {:.0} s",
            args[0],
            started.elapsed().as_secs_f64()
        ),
        Err(error) => {
            eprintln!(
                "xtask {}: FAILED after {:.0} s: {error:#}",
                args[0],
                started.elapsed().as_secs_f64()
            );
            std::process::exit(1);
        }
    }
}
