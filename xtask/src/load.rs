//! `cargo xtask load [--seconds N] [--server URL]`: many signed-in sessions at once doing mixed
//! reads and writes against larder-server for a fixed time; reports throughput and p50/p99
//! latency, fails on any unexpected answer, and afterwards checks that every write a session
//! saw acknowledged is there.
//!
//! Sessions: the 24 demo household owners (family01..family24) read their household and members,
//! add, rename and remove members and change their household's region; 8 curator and admin
//! sessions list, read and search articles and create, edit and delete their own.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bench::{median, percentile};
use crate::process::{root, Server};

const OWNERS: usize = 24;
const CURATORS: usize = 8;

pub fn run(args: &[String]) -> Result<()> {
    let mut seconds = 60u64;
    let mut server_url = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--seconds" => seconds = rest.next().context("--seconds N")?.parse()?,
            "--server" => server_url = Some(rest.next().context("--server URL")?.clone()),
            other => bail!(
                "unknown option {other}; usage: cargo xtask load [--seconds N] [--server URL]"
            ),
        }
    }
    match server_url {
        Some(url) => measure(url.trim_end_matches('/'), seconds),
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
    measure(&server.url, seconds)
}

fn measure(origin: &str, seconds: u64) -> Result<()> {
    let report =
        tokio::runtime::Runtime::new()?.block_on(drive(origin, Duration::from_secs(seconds)))?;
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
        )
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
        })
    }
}

/// One session's view of the service.
struct Session {
    http: reqwest::Client,
    origin: String,
    token: String,
    random: u64,
    reads: Vec<f64>,
    writes: Vec<f64>,
    unexpected: Vec<String>,
}

impl Session {
    async fn sign_in(
        http: reqwest::Client,
        origin: &str,
        user: &str,
        password: &str,
        seed: u64,
    ) -> Result<Session> {
        let answer: Value = http
            .post(format!("{origin}/api/v1/system/login"))
            .json(&json!({"username": user, "password": password}))
            .send()
            .await?
            .error_for_status()
            .with_context(|| format!("sign-in of {user}"))?
            .json()
            .await?;
        let token = ["token", "access_token", "jwt"]
            .iter()
            .find_map(|k| answer["result"][k].as_str())
            .context("no token")?
            .to_string();
        Ok(Session {
            http,
            origin: origin.to_string(),
            token,
            random: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            reads: Vec::new(),
            writes: Vec::new(),
            unexpected: Vec::new(),
        })
    }

    /// xorshift: each session's own repeatable sequence of choices.
    fn next(&mut self, below: u64) -> u64 {
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random % below
    }

    /// Sends one request; a non-2xx answer or a transport failure is recorded as unexpected.
    async fn call(&mut self, method: Method, path: &str, body: Option<Value>) -> Option<Value> {
        let write = method != Method::GET && !path.ends_with("/search");
        let mut request = self
            .http
            .request(method.clone(), format!("{}/api/v1/{path}", self.origin))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let at = Instant::now();
        let answer = request.send().await;
        let outcome = match answer {
            Ok(answer) => {
                let status = answer.status();
                let text = answer.text().await.unwrap_or_default();
                if status.is_success() {
                    Ok(serde_json::from_str::<Value>(&text).unwrap_or(Value::Null))
                } else {
                    Err(format!(
                        "{method} {path}: {status} {}",
                        text.chars().take(200).collect::<String>()
                    ))
                }
            }
            Err(error) => Err(format!("{method} {path}: {error}")),
        };
        let ms = at.elapsed().as_secs_f64() * 1000.0;
        let times = if write {
            &mut self.writes
        } else {
            &mut self.reads
        };
        times.push(ms);
        match outcome {
            Ok(value) => Some(value),
            Err(problem) => {
                self.unexpected.push(problem);
                None
            }
        }
    }
}

/// What a session expects to find afterwards: (path, field, value) of acknowledged writes.
type Expectations = Vec<(String, String, Value)>;

async fn owner(mut s: Session, deadline: Instant, n: usize) -> (Session, Expectations) {
    let mut expect = Vec::new();
    let Some(home) = s.call(Method::GET, "households/me", None).await else {
        return (s, expect);
    };
    let household = home["result"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mut members: Vec<String> = Vec::new();
    let mut region = None;
    let mut counter = 0;
    while Instant::now() < deadline {
        counter += 1;
        match s.next(10) {
            0..=2 => {
                s.call(Method::GET, "households/me", None).await;
            }
            3..=4 => {
                s.call(
                    Method::GET,
                    &format!("members?household_id={household}&limit=100"),
                    None,
                )
                .await;
            }
            5 => {
                s.call(Method::GET, "system/ping", None).await;
            }
            6 => {
                let body = json!({"household_id": household, "name": format!("Load {n}-{counter}"), "age_group": "adult"});
                if let Some(made) = s.call(Method::POST, "members", Some(body)).await {
                    if let Some(id) = made["result"]["id"].as_str() {
                        members.push(id.to_string());
                    }
                }
            }
            7 if !members.is_empty() => {
                let id = members[s.next(members.len() as u64) as usize].clone();
                let name = format!("Renamed {n}-{counter}");
                if s.call(
                    Method::PATCH,
                    &format!("members/{id}"),
                    Some(json!({"name": name})),
                )
                .await
                .is_some()
                {
                    expect.retain(|(path, _, _): &(String, String, Value)| {
                        path != &format!("members/{id}")
                    });
                    expect.push((format!("members/{id}"), "name".into(), json!(name)));
                }
            }
            8 if members.len() > 2 => {
                let id = members.remove(0);
                if s.call(Method::DELETE, &format!("members/{id}"), None)
                    .await
                    .is_some()
                {
                    expect.retain(|(path, _, _)| path != &format!("members/{id}"));
                    expect.push((format!("members/{id}"), "deleted".into(), Value::Null));
                }
            }
            _ => {
                let value = format!("region {n}-{counter}");
                if s.call(
                    Method::PATCH,
                    &format!("households/{household}"),
                    Some(json!({"region": value})),
                )
                .await
                .is_some()
                {
                    region = Some(value);
                }
            }
        }
    }
    for id in &members {
        if !expect
            .iter()
            .any(|(path, _, _)| path == &format!("members/{id}"))
        {
            expect.push((
                format!("members/{id}"),
                "household_id".into(),
                json!(household),
            ));
        }
    }
    if let Some(region) = region {
        expect.push((
            format!("households/{household}"),
            "region".into(),
            json!(region),
        ));
    }
    (s, expect)
}

async fn curator(mut s: Session, deadline: Instant, n: usize) -> (Session, Expectations) {
    let mut expect = Vec::new();
    let mut mine: Vec<String> = Vec::new();
    let words = ["vitamin", "iron", "calcium", "protein", "sugar", "fibre"];
    // The demo articles, as the list names them.
    let listed = s.call(Method::GET, "articles?limit=20", None).await;
    let known: Vec<String> = listed
        .as_ref()
        .and_then(|l| l["result"].as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().or_else(|| i["urn"].as_str()).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if known.is_empty() {
        s.unexpected.push("the article list was empty".into());
        return (s, expect);
    }
    let mut counter = 0;
    while Instant::now() < deadline {
        counter += 1;
        match s.next(10) {
            0..=2 => {
                let offset = s.next(20);
                s.call(
                    Method::GET,
                    &format!("articles?limit=20&offset={offset}"),
                    None,
                )
                .await;
            }
            3..=4 => {
                let urn = known[s.next(known.len() as u64) as usize].clone();
                s.call(Method::GET, &format!("articles/{urn}"), None).await;
            }
            5..=6 => {
                let q = words[s.next(words.len() as u64) as usize];
                s.call(
                    Method::POST,
                    "articles/search",
                    Some(json!({"q": q, "limit": 20})),
                )
                .await;
            }
            7 => {
                let slug = format!("load-{n}-{counter}-{}", std::process::id());
                let body = json!({"urn": slug, "title": format!("Load {slug}"), "content": "Written under load."});
                if s.call(Method::POST, "articles", Some(body)).await.is_some() {
                    mine.push(format!("urn:article:{slug}"));
                }
            }
            8 if !mine.is_empty() => {
                let urn = mine[s.next(mine.len() as u64) as usize].clone();
                let title = format!("Edited {n}-{counter}");
                if s.call(
                    Method::PATCH,
                    &format!("articles/{urn}"),
                    Some(json!({"title": title})),
                )
                .await
                .is_some()
                {
                    expect.retain(|(path, _, _): &(String, String, Value)| {
                        path != &format!("articles/{urn}")
                    });
                    expect.push((format!("articles/{urn}"), "title".into(), json!(title)));
                }
            }
            _ if mine.len() > 3 => {
                let urn = mine.remove(0);
                if s.call(Method::DELETE, &format!("articles/{urn}"), None)
                    .await
                    .is_some()
                {
                    expect.retain(|(path, _, _)| path != &format!("articles/{urn}"));
                    expect.push((format!("articles/{urn}"), "deleted".into(), Value::Null));
                }
            }
            _ => {
                s.call(Method::GET, "system/ping", None).await;
            }
        }
    }
    for urn in &mine {
        if !expect
            .iter()
            .any(|(path, _, _)| path == &format!("articles/{urn}"))
        {
            expect.push((format!("articles/{urn}"), "urn".into(), json!(urn)));
        }
    }
    (s, expect)
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
    // Every acknowledged write, read back by its own session.
    for (token, expect) in checks {
        for (path, field, value) in expect {
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
