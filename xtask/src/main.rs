//! `cargo xtask`: set up the tools, serve the console, run every test.

mod process;
mod serve;
mod setup;
mod test;

use std::time::Instant;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  setup              install what is missing: wasm target, trunk, wasm-bindgen-cli, chromium,
                     chromedriver, npm packages (skips what is there at the right version)
  serve [--port N]   build the console (release) and serve it with larder-server and demo data
  test               run every check: fmt, clippy (native and wasm), native tests, browser tests";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let started = Instant::now();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run().map(|_| ()),
        Some("serve") => serve::run(&args[1..]),
        Some("test") => test::run(),
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
