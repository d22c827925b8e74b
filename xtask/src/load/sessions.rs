//! The two kinds of session of the load run: household owners and curators, each doing a
//! repeatable random mix of reads and writes and noting what it expects to find afterwards.

use std::time::Instant;

use anyhow::{Context, Result};
use reqwest::Method;
use serde_json::{json, Value};

/// One session's view of the service.
pub struct Session {
    pub http: reqwest::Client,
    pub origin: String,
    pub token: String,
    pub random: u64,
    pub reads: Vec<f64>,
    pub writes: Vec<f64>,
    pub unexpected: Vec<String>,
}

impl Session {
    pub async fn sign_in(
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
/// What a session expects to find afterwards: per path, the field its latest acknowledged
/// write set (`deleted` for a deletion).
#[derive(Default)]
pub struct Expectations(Vec<(String, String, Value)>);

impl Expectations {
    /// The latest write to `path` wins.
    fn set(&mut self, path: String, field: &str, value: Value) {
        self.0.retain(|(p, _, _)| p != &path);
        self.0.push((path, field.to_string(), value));
    }

    /// Records `field = value` unless a later write to `path` was recorded already.
    fn set_unless_written(&mut self, path: String, field: &str, value: Value) {
        if !self.0.iter().any(|(p, _, _)| p == &path) {
            self.0.push((path, field.to_string(), value));
        }
    }

    /// `(path, field, value)` triples.
    pub fn into_checks(self) -> Vec<(String, String, Value)> {
        self.0
    }
}

pub async fn owner(mut s: Session, deadline: Instant, n: usize) -> (Session, Expectations) {
    let mut expect = Expectations::default();
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
                    expect.set(format!("members/{id}"), "name", json!(name));
                }
            }
            8 if members.len() > 2 => {
                let id = members.remove(0);
                if s.call(Method::DELETE, &format!("members/{id}"), None)
                    .await
                    .is_some()
                {
                    expect.set(format!("members/{id}"), "deleted", Value::Null);
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
        expect.set_unless_written(format!("members/{id}"), "household_id", json!(household));
    }
    if let Some(region) = region {
        expect.set(format!("households/{household}"), "region", json!(region));
    }
    (s, expect)
}

pub async fn curator(mut s: Session, deadline: Instant, n: usize) -> (Session, Expectations) {
    let mut expect = Expectations::default();
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
                let body = json!({"urn": slug, "title": format!("Load {slug}"), "content": "Written under load.",
                                  "venue": "Load Journal", "authors": ["L. Oad"]});
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
                    expect.set(format!("articles/{urn}"), "title", json!(title));
                }
            }
            _ if mine.len() > 3 => {
                let urn = mine.remove(0);
                if s.call(Method::DELETE, &format!("articles/{urn}"), None)
                    .await
                    .is_some()
                {
                    expect.set(format!("articles/{urn}"), "deleted", Value::Null);
                }
            }
            _ => {
                s.call(Method::GET, "system/ping", None).await;
            }
        }
    }
    for urn in &mine {
        expect.set_unless_written(format!("articles/{urn}"), "urn", json!(urn));
    }
    (s, expect)
}
