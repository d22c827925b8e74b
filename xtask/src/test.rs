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

use crate::journeys::{e2e_prefix, log_path, PLAYWRIGHT_DIST};
use crate::process::{command, exec, root, Server};

/// A named check.
type Step = (&'static str, fn() -> Result<()>);

/// The checks that build and run natively and in wasm, in order.
const CHECKS: [Step; 5] = [
    ("format", || {
        exec(&mut command("cargo", &["fmt", "--all", "--", "--check"]))
    }),
    ("clippy (native)", || {
        exec(&mut command(
            "cargo",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ))
    }),
    // Also checks the unsplit build (feature `split` off) that `trunk serve` makes.
    ("clippy (wasm32)", || {
        exec(&mut command(
            "cargo",
            &[
                "clippy",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                "larder",
                "-p",
                "larder-api",
                "-p",
                "larder-contract",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ))
    }),
    ("native tests", || {
        exec(&mut command("cargo", &["test", "--workspace"]))
    }),
    ("browser tests (wasm-bindgen-test in Chromium)", wasm_tests),
];

/// Runs setup, the checks beside the console's release build, the journeys, and the load.
pub fn run() -> Result<()> {
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
    let compile = ConsoleCompile::start()?;
    stages.run("setup", || crate::setup::run().map(|_| ()))?;
    let console = ConsoleBuild::start(compile)?;
    for (name, step) in CHECKS {
        stages.run(name, step)?;
    }
    stages.run(
        "console release build (the rest of it, after the checks)",
        || console.finish(),
    )?;
    stages.run(
        "Playwright journeys: reference wire, beside the production wire then production's own households service (realprod)",
        || crate::journeys::both_wires_then_realprod(&debug_server()?),
    )?;
    stages.run("load (32 sessions, 10 s, zero unexpected answers)", || {
        crate::load::against_binary(&debug_server()?, 10)
    })?;
    stages.report(started.elapsed());
    Ok(())
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

/// The console's release compile for the splitter (`split::CARGO_ARGS`), as a child process
/// with its output in `target/ci/console-compile.log`. The build's own `cargo rustc` then waits
/// for it and finds nothing left to do. Killed if an earlier step fails.
struct ConsoleCompile {
    child: Option<Child>,
    log: PathBuf,
}

impl ConsoleCompile {
    fn start() -> Result<ConsoleCompile> {
        let log = log_path("console-compile")?;
        let file = std::fs::File::create(&log)?;
        eprintln!(
            "console release compile started beside setup (output in {})",
            log.display()
        );
        let child = command("cargo", &crate::split::CARGO_ARGS)
            .stdout(file.try_clone()?)
            .stderr(file)
            .stdin(Stdio::null())
            .spawn()
            .context("starting the console's release compile")?;
        Ok(ConsoleCompile {
            child: Some(child),
            log,
        })
    }

    /// Its failure, with its output, when it failed.
    fn finish(mut self) -> Result<()> {
        let status = self.child.take().context("already finished")?.wait()?;
        if !status.success() {
            eprintln!("{}", std::fs::read_to_string(&self.log).unwrap_or_default());
            bail!("the console's release compile failed ({status})");
        }
        Ok(())
    }
}

impl Drop for ConsoleCompile {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `cargo xtask dist` into the journeys' folder, as a child process with its output in
/// `target/ci/console-build.log`. Killed if the checks fail first.
struct ConsoleBuild {
    compile: Option<ConsoleCompile>,
    child: Option<Child>,
    log: PathBuf,
    started: Instant,
}

impl ConsoleBuild {
    fn start(compile: ConsoleCompile) -> Result<ConsoleBuild> {
        let log = log_path("console-build")?;
        let file = std::fs::File::create(&log)?;
        let prefix = e2e_prefix();
        let program = std::env::current_exe().context("finding cargo xtask's own binary")?;
        let program = program.to_str().context("xtask's path is not UTF-8")?;
        eprintln!(
            "console release build started beside the checks (output in {})",
            log.display()
        );
        let child = command(
            program,
            &["dist", "--public-url", &prefix, "--dist", PLAYWRIGHT_DIST],
        )
        .stdout(file.try_clone()?)
        .stderr(file)
        .stdin(Stdio::null())
        .spawn()
        .context("starting the console's release build")?;
        Ok(ConsoleBuild {
            compile: Some(compile),
            child: Some(child),
            log,
            started: Instant::now(),
        })
    }

    fn finish(mut self) -> Result<()> {
        self.compile.take().context("already finished")?.finish()?;
        let status = self.child.take().context("already finished")?.wait()?;
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        if !status.success() {
            eprintln!("{text}");
            bail!("the console's release build failed ({status})");
        }
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        for line in tail.into_iter().rev() {
            eprintln!("  {line}");
        }
        eprintln!(
            "console release build: {:.0} s from its start",
            self.started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

impl Drop for ConsoleBuild {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn debug_server() -> Result<std::path::PathBuf> {
    exec(&mut command(
        "cargo",
        &["build", "--package", "larder-server"],
    ))?;
    Ok(root().join("target/debug/larder-server"))
}

/// The packages whose tests run in the browser.
const WASM_TEST_PACKAGES: [(&str, &str); 2] = [("larder", "."), ("larder-api", "crates/api")];

/// The test targets of `package_dir` that hold wasm-bindgen tests: only those are built for
/// wasm32, rather than every native test file compiled and linked for nothing.
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

/// The wasm tests call a real server; its address reaches them at compile time.
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
    // One cargo run for both packages: run one by one, the second rebuilt larder-api and
    // larder-contract with its own feature set (25 s on a fresh machine). A `--test` name
    // needs to exist in one of the packages only.
    let mut args = vec!["test", "--target", "wasm32-unknown-unknown"];
    let mut targets = Vec::new();
    for (package, dir) in WASM_TEST_PACKAGES {
        let found = wasm_test_targets(dir)?;
        if found.is_empty() {
            bail!("{package} has no wasm-bindgen tests in {dir}/tests");
        }
        args.extend(["-p", package]);
        targets.extend(found);
    }
    targets.sort();
    targets.dedup();
    for target in &targets {
        args.extend(["--test", target.as_str()]);
    }
    exec(command("cargo", &args).env("LARDER_TEST_SERVER", &server.url))
}
