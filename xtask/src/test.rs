//! `cargo xtask test`: every check, stopping at the first failure, and each stage's time.
//!
//! Laid out for two cores (issue 24): the release console build the journeys drive is mostly
//! one core's work (LTO into one codegen unit), so it runs as a child process beside setup and
//! the checks (its compile from the start, the rest once setup has installed the tools);
//! the two wires' journeys run at the same time (see `journeys`). A table of the stages' times
//! ends the run.

use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::journeys::e2e_prefix;
use crate::lint::{self, linted_cargo};
use crate::playwright::{log_path, PLAYWRIGHT_DIST};
use crate::process::{command, exec, root, Server};

/// A named check.
type Step = (&'static str, fn() -> Result<()>);

/// The checks that build and run natively and in wasm, in order. Clippy's lints run inside
/// the two test builds (see `lint`).
const CHECKS: [Step; 3] = [
    ("format", || {
        exec(&mut command("cargo", &["fmt", "--all", "--", "--check"]))
    }),
    ("native: clippy and tests", || {
        lint::check_the_wrapper()?;
        exec(&mut linted_cargo(&["test", "--workspace"])?)
    }),
    (
        "wasm32: clippy, and the browser tests (wasm-bindgen-test in Chromium)",
        wasm_tests,
    ),
];

/// `cargo xtask test [--realprod DIR]`: setup, the checks beside the console's release build,
/// the journeys (on production's own households service too when DIR is given), and the load.
pub fn run(args: &[String]) -> Result<()> {
    let realprod = realprod_option(args)?;
    let started = Instant::now();
    // A CI run builds everything once from a fresh clone: incremental compilation's caches are
    // written for nothing there. Set before any thread or child starts; a developer's runs keep
    // them.
    if std::env::var_os("CI").is_some() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
        std::env::set_var("CARGO_INCREMENTAL", "0");
    }
    let mut stages = Stages::default();
    // The console's release compile needs only the wasm32 target: it starts now, beside setup's
    // own compile and downloads, and the rest of its build (which needs wasm-bindgen and
    // wasm-opt) after setup.
    crate::setup::wasm_target(&mut Vec::new())?;
    let compiles = start_console_compiles()?;
    stages.run("setup", || crate::setup::run().map(|_| ()))?;
    let console = ConsoleBuild::start(compiles)?;
    for (name, step) in CHECKS {
        stages.run(name, step)?;
    }
    stages.run(
        "console release build (the rest of it, after the checks)",
        || console.finish(),
    )?;
    stages.run(
        "Playwright journeys: reference wire, beside the production wire (then production's own households service, with --realprod)",
        || crate::journeys::both_wires_then_realprod(&debug_server()?, realprod.as_deref()),
    )?;
    stages.run(
        "the identity provider's journeys (the sign-in carrier probe)",
        || crate::oidc::journeys(&debug_server()?, &[]),
    )?;
    stages.run("load (32 sessions, 10 s, zero unexpected answers)", || {
        crate::load::against_binary(&debug_server()?, 10)
    })?;
    stages.report(started.elapsed());
    Ok(())
}

/// The realprod directory `--realprod DIR` names: asked for, it must hold `start.sh` (checked
/// before anything is built, so a wrong path fails in a second, not after the checks).
fn realprod_option(args: &[String]) -> Result<Option<PathBuf>> {
    match args {
        [] => Ok(None),
        [flag, dir] if flag == "--realprod" => {
            let dir = PathBuf::from(dir);
            if !dir.join("start.sh").is_file() {
                bail!(
                    "--realprod {}: no start.sh there; production's own households service was \
                     asked for and cannot run",
                    dir.display()
                );
            }
            Ok(Some(dir.canonicalize()?))
        }
        _ => bail!("usage: cargo xtask test [--realprod DIR]"),
    }
}

/// Each stage's name and time, printed at the end.
#[derive(Default)]
struct Stages(Vec<(&'static str, Duration)>);

impl Stages {
    fn run(&mut self, name: &'static str, step: impl FnOnce() -> Result<()>) -> Result<()> {
        let started = Instant::now();
        eprintln!("\n==> {name}");
        step().with_context(|| format!("step `{name}`"))?;
        let took = started.elapsed();
        eprintln!("<== {name}: ok in {:.0} s", took.as_secs_f64());
        self.0.push((name, took));
        Ok(())
    }

    fn report(&self, total: Duration) {
        eprintln!("\nstage times (cargo xtask test):");
        for (name, took) in &self.0 {
            eprintln!("  {:>6.0} s  {name}", took.as_secs_f64());
        }
        eprintln!("  {:>6.0} s  in all", total.as_secs_f64());
    }
}

/// A child process with its whole output in `target/ci/<name>.log`: killed when dropped
/// unfinished (an earlier step failed), its log printed when it fails.
struct Logged {
    child: Option<Child>,
    log: PathBuf,
    what: &'static str,
    started: Instant,
}

impl Logged {
    fn spawn(what: &'static str, name: &str, program: &str, args: &[&str]) -> Result<Logged> {
        let log = log_path(name)?;
        let file = std::fs::File::create(&log)?;
        eprintln!("{what} started (output in {})", log.display());
        let child = command(program, args)
            .stdout(file.try_clone()?)
            .stderr(file)
            .stdin(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {what}"))?;
        Ok(Logged {
            child: Some(child),
            log,
            what,
            started: Instant::now(),
        })
    }

    /// Waits for it; its output when it succeeded, its failure (output printed) otherwise.
    fn finish(mut self) -> Result<String> {
        let status = self.child.take().context("already finished")?.wait()?;
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        if !status.success() {
            eprintln!("{text}");
            bail!("{} failed ({status})", self.what);
        }
        Ok(text)
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The console's release compiles, started before setup: the console for the splitter
/// (`split::CARGO_ARGS`) and the start-up module (`split::START_CARGO_ARGS`, which waits for
/// the first's lock on the build folder). The build's own cargo runs then find nothing left
/// to do; run beside the checks instead, the start-up module's took their CPU.
fn start_console_compiles() -> Result<[Logged; 2]> {
    Ok([
        Logged::spawn(
            "the console's release compile",
            "console-compile",
            "cargo",
            &crate::split::CARGO_ARGS,
        )?,
        Logged::spawn(
            "the start-up module's release compile",
            "start-compile",
            "cargo",
            &crate::split::START_CARGO_ARGS,
        )?,
    ])
}

/// `cargo xtask dist` into the journeys' folder, once setup has installed its tools, beside the
/// checks.
struct ConsoleBuild {
    compiles: [Logged; 2],
    build: Logged,
}

impl ConsoleBuild {
    fn start(compiles: [Logged; 2]) -> Result<ConsoleBuild> {
        let prefix = e2e_prefix();
        let program = std::env::current_exe().context("finding cargo xtask's own binary")?;
        let program = program.to_str().context("xtask's path is not UTF-8")?;
        let build = Logged::spawn(
            "the console's release build",
            "console-build",
            program,
            &["dist", "--public-url", &prefix, "--dist", PLAYWRIGHT_DIST],
        )?;
        Ok(ConsoleBuild { compiles, build })
    }

    fn finish(self) -> Result<()> {
        for compile in self.compiles {
            compile.finish()?;
        }
        let started = self.build.started;
        let text = self.build.finish()?;
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        for line in tail.into_iter().rev() {
            eprintln!("  {line}");
        }
        eprintln!(
            "console release build: {:.0} s from its start",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

/// The server the journeys and the wasm tests talk to: the one `cargo test --workspace` built.
/// Asked for with the same command and wrapper, so nothing is rebuilt; `cargo build
/// --package larder-server` resolved other features and rebuilt it (22 s on a fresh machine).
fn debug_server() -> Result<std::path::PathBuf> {
    exec(&mut linted_cargo(&["test", "--workspace", "--no-run"])?)?;
    Ok(root().join("target/debug/larder-server"))
}

/// The packages whose tests run in the browser (among `WASM_LINTED`'s).
const WASM_TEST_PACKAGES: [(&str, &str); 2] = [("larder", "."), ("larder-api", "crates/api")];

/// The test targets of `package_dir` that hold wasm-bindgen tests: only those run in the
/// browser (every target is compiled for wasm32 before, for its lints).
fn wasm_test_targets(package_dir: &str) -> Result<Vec<String>> {
    let mut targets = Vec::new();
    for entry in std::fs::read_dir(root().join(package_dir).join("tests"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "rs")
            && std::fs::read_to_string(&path)?.contains("wasm_bindgen_test")
        {
            if let Some(stem) = path.file_stem() {
                targets.push(stem.to_string_lossy().into_owned());
            }
        }
    }
    targets.sort();
    Ok(targets)
}

/// The crates linted for wasm32, every target: the console in its unsplit build (feature
/// `split` off, as `trunk serve` and the wasm tests build it), its API client and contract, and
/// the start-up module's browser binary, which needs its feature.
const WASM_LINTED: [&str; 12] = [
    "--target",
    "wasm32-unknown-unknown",
    "-p",
    "larder",
    "-p",
    "larder-api",
    "-p",
    "larder-contract",
    "-p",
    "larder-start",
    "--features",
    "larder-start/web",
];

/// Every wasm32 target compiled and linted, then the wasm-bindgen tests run. The wasm tests
/// call a real server; its address reaches them at compile time. Both cargo runs select the
/// same packages and features, so the second compiles nothing.
fn wasm_tests() -> Result<()> {
    let server = Server::start(
        &debug_server()?,
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--demo",
            "--cors-origin",
            "*",
            "--fault-injection",
        ],
    )?;
    let mut selection = vec!["test"];
    selection.extend(WASM_LINTED);
    let mut everything = selection.clone();
    everything.extend(["--all-targets", "--no-run"]);
    exec(linted_cargo(&everything)?.env("LARDER_TEST_SERVER", &server.url))?;
    // A `--test` name needs to exist in one of the packages only.
    let mut targets = Vec::new();
    for (package, dir) in WASM_TEST_PACKAGES {
        let found = wasm_test_targets(dir)?;
        if found.is_empty() {
            bail!("{package} has no wasm-bindgen tests in {dir}/tests");
        }
        targets.extend(found);
    }
    targets.sort();
    targets.dedup();
    for target in &targets {
        selection.extend(["--test", target.as_str()]);
    }
    exec(linted_cargo(&selection)?.env("LARDER_TEST_SERVER", &server.url))
}
