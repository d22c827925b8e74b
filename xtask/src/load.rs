//! `cargo xtask load [--seconds N] [--server URL]`: many signed-in sessions at once doing mixed
//! reads and writes against larder-server for a fixed time; reports throughput and p50/p99
//! latency, fails on any unexpected answer, and afterwards checks that every write a session
//! saw acknowledged is there.
//!
//! Sessions: the 24 demo household owners (family01..family24) read their household and members,
//! add, rename and remove members and change their household's region; 8 curator and admin
//! sessions list, read and search articles and create, edit and delete their own.
//!
//! Beside them a slow-body client (see `load/slow.rs`) keeps 16 sign-ins open whose bodies
//! arrive a byte at a time: the server must cut each, and the sessions must see no unexpected
//! answer meanwhile.
//!
//! Then a memory soak (see `load/soak.rs`) when the server's process is known (started here, or
//! `--pid`): it fails the run when resident memory grows past its margin.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::bench::{median, percentile};
use crate::process::{root, Server};

mod sessions;
mod slow;
mod soak;

use sessions::{curator, owner, Session};

const OWNERS: usize = 24;
const CURATORS: usize = 8;

pub fn run(args: &[String]) -> Result<()> {
    let mut seconds = 60u64;
    let mut server_url = None;
    let mut pid = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--seconds" => seconds = rest.next().context("--seconds N")?.parse()?,
            "--server" => server_url = Some(rest.next().context("--server URL")?.clone()),
            "--pid" => pid = Some(rest.next().context("--pid PID")?.parse()?),
            other => bail!(
                "unknown option {other}; usage: cargo xtask load [--seconds N] [--server URL [--pid PID]]"
            ),
        }
    }
    match server_url {
        Some(url) => measure(url.trim_end_matches('/'), seconds, pid),
        // Without --server: the optimised server on a database file (real disk writes, as deployed).
        None => {
            crate::process::exec(&mut crate::process::command(
                "cargo",
                &["build", "--profile", "server", "--package", "larder-server"],
            ))?;
            against_binary(&root().join("target/server/larder-server"), seconds)
        }
    }
}

/// Starts `binary` on a fresh database file with the demo data and runs the load against it.
pub fn against_binary(binary: &std::path::Path, seconds: u64) -> Result<()> {
    let dir = TempDir(tempfile_dir()?);
    let db = dir.0.join("load.db");
    let server = Server::start(
        binary,
        &[
            "--addr",
            "127.0.0.1:0",
            "--db",
            db.to_str().context("a UTF-8 temporary path")?,
            "--demo",
        ],
    )?;
    measure(&server.url, seconds, Some(server.pid()))
}

fn measure(origin: &str, seconds: u64, pid: Option<u32>) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let mut report = runtime.block_on(drive(origin, Duration::from_secs(seconds)))?;
    report.soak = match pid {
        Some(pid) => runtime.block_on(soak::run(&reqwest::Client::new(), origin, pid))?,
        None => {
            eprintln!("memory soak skipped: the server's process id is not known (--pid)");
            None
        }
    };
    print!("{}", report.table());
    let path = root().join("target/load/report.json");
    std::fs::create_dir_all(path.parent().unwrap())?;
    std::fs::write(&path, serde_json::to_vec_pretty(&report.json())?)?;
    eprintln!("wrote {}", path.display());
    if !report.unexpected.is_empty() {
        bail!(
            "{} unexpected answers, e.g. {:?}",
            report.unexpected.len(),
            &report.unexpected[..report.unexpected.len().min(5)]
        );
    }
    if !report.lost.is_empty() {
        bail!("acknowledged writes missing afterwards: {:?}", report.lost);
    }
    if let Some(soak) = &report.soak {
        soak.check()?;
    }
    Ok(())
}

/// A folder removed when dropped.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("larder-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[derive(Default)]
struct Report {
    seconds: f64,
    sessions: usize,
    reads: Vec<f64>,
    writes: Vec<f64>,
    unexpected: Vec<String>,
    lost: Vec<String>,
    checked: usize,
    slow: slow::Slow,
    soak: Option<soak::Soak>,
}

impl Report {
    fn total(&self) -> usize {
        self.reads.len() + self.writes.len()
    }

    fn table(&self) -> String {
        let line = |name: &str, times: &[f64]| {
            format!(
                "{name:<8} {:>8} {:>10.0} {:>9.1} {:>9.1}\n",
                times.len(),
                times.len() as f64 / self.seconds,
                median(times),
                percentile(times, 99.0)
            )
        };
        let all: Vec<f64> = self.reads.iter().chain(&self.writes).copied().collect();
        format!(
            "load: {} sessions for {:.0} s\n{:<8} {:>8} {:>10} {:>9} {:>9}\n{}{}{}unexpected answers: {}; acknowledged writes checked afterwards: {}, missing: {}\n",
            self.sessions,
            self.seconds,
            "",
            "requests",
            "per second",
            "p50 ms",
            "p99 ms",
            line("reads", &self.reads),
            line("writes", &self.writes),
            line("all", &all),
            self.unexpected.len(),
            self.checked,
            self.lost.len()
        ) + &self.slow.line()
            + &self.soak.as_ref().map(soak::Soak::line).unwrap_or_default()
    }

    fn json(&self) -> Value {
        let figures = |times: &[f64]| {
            json!({
                "requests": times.len(),
                "per_second": times.len() as f64 / self.seconds,
                "p50_ms": median(times),
                "p99_ms": percentile(times, 99.0),
            })
        };
        json!({
            "sessions": self.sessions,
            "seconds": self.seconds,
            "total_requests": self.total(),
            "reads": figures(&self.reads),
            "writes": figures(&self.writes),
            "unexpected": self.unexpected,
            "acknowledged_writes_checked": self.checked,
            "missing": self.lost,
            "slow_bodies": self.slow.json(),
            "memory_soak": self.soak.as_ref().map(soak::Soak::json),
        })
    }
}

async fn drive(origin: &str, length: Duration) -> Result<Report> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()?;
    let mut sessions = Vec::new();
    for i in 1..=OWNERS {
        sessions.push((
            Session::sign_in(
                http.clone(),
                origin,
                &format!("family{i:02}"),
                "family-demo",
                i as u64,
            )
            .await?,
            true,
        ));
    }
    for i in 0..CURATORS {
        let (user, password) = if i % 2 == 0 {
            ("curator", "curator-demo")
        } else {
            ("admin", "admin-demo")
        };
        sessions.push((
            Session::sign_in(http.clone(), origin, user, password, 100 + i as u64).await?,
            false,
        ));
    }
    let count = sessions.len();
    let started = Instant::now();
    let deadline = started + length;
    let tasks: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(n, (session, is_owner))| {
            tokio::spawn(async move {
                if is_owner {
                    owner(session, deadline, n).await
                } else {
                    curator(session, deadline, n).await
                }
            })
        })
        .collect();
    let slow = tokio::spawn({
        let origin = origin.to_string();
        async move { slow::run(&origin, deadline).await }
    });
    let mut report = Report {
        sessions: count,
        ..Report::default()
    };
    let mut checks = Vec::new();
    for task in tasks {
        let (session, expect) = task.await?;
        report.reads.extend(session.reads);
        report.writes.extend(session.writes);
        report.unexpected.extend(session.unexpected);
        checks.push((session.token, expect));
    }
    report.seconds = started.elapsed().as_secs_f64();
    report.slow = slow.await??;
    report
        .unexpected
        .extend(report.slow.unexpected.iter().cloned());
    // Every acknowledged write, read back by its own session.
    for (token, expect) in checks {
        for (path, field, value) in expect.into_checks() {
            report.checked += 1;
            let answer = http
                .get(format!("{origin}/api/v1/{path}"))
                .bearer_auth(&token)
                .send()
                .await?;
            let status = answer.status();
            let body: Value = answer.json().await.unwrap_or(Value::Null);
            let held = match field.as_str() {
                "deleted" => status == StatusCode::NOT_FOUND,
                _ => status.is_success() && body["result"][&field] == value,
            };
            if !held {
                report
                    .lost
                    .push(format!("{path}: {field} = {value} (got {status})"));
            }
        }
    }
    Ok(report)
}
