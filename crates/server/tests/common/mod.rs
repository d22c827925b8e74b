//! A server on a free port with a fresh in-memory database, and a small HTTP helper.
#![allow(dead_code)]

pub mod records;

use larder_server::{Options, Running};
use serde_json::{json, Value};

/// The token of a sign-in answer: `token` (the reference wire) or `access_token` (production's).
pub fn token_of(result: &Value) -> String {
    result["token"]
        .as_str()
        .or_else(|| result["access_token"].as_str())
        .expect("a token in the sign-in answer")
        .to_string()
}

pub struct TestServer {
    pub state: larder_server::SharedState,
    pub running: Option<Running>,
    pub base: String,
    pub http: reqwest::Client,
}

pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl TestServer {
    /// Starts a server with the given extra command-line arguments.
    pub async fn start(extra: &[&str]) -> TestServer {
        let mut args = vec![
            "larder-server",
            "--addr",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--cors-origin",
            "*",
        ];
        args.extend_from_slice(extra);
        let options = <Options as clap::Parser>::parse_from(args);
        let state = larder_server::prepare(options).expect("prepare");
        let running = larder_server::start(state.clone()).await.expect("start");
        let base = format!("http://{}/api/v1", running.addr);
        TestServer {
            state,
            running: Some(running),
            base,
            http: reqwest::Client::new(),
        }
    }

    /// Starts a server with exactly these arguments (besides a free port).
    pub async fn start_with(extra: &[&str]) -> TestServer {
        let mut args = vec!["larder-server", "--addr", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let options = <Options as clap::Parser>::parse_from(args);
        let state = larder_server::prepare(options).expect("prepare");
        let running = larder_server::start(state.clone()).await.expect("start");
        let base = format!("http://{}/api/v1", running.addr);
        TestServer {
            state,
            running: Some(running),
            base,
            http: reqwest::Client::new(),
        }
    }

    /// Starts a server with the demo data.
    pub async fn demo() -> TestServer {
        TestServer::start(&["--demo"]).await
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self.http.request(
            method,
            format!("{}/{}", self.base, path.trim_start_matches('/')),
        );
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("send");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            headers,
            body,
        }
    }

    pub async fn login(&self, username: &str, password: &str) -> String {
        let answer = self
            .call(
                "POST",
                "system/login",
                None,
                Some(json!({"username": username, "password": password})),
            )
            .await;
        assert_eq!(answer.status, 200, "login {username}: {}", answer.body);
        token_of(&answer.body["result"])
    }

    pub async fn stop(mut self) {
        if let Some(running) = self.running.take() {
            running.stop().await;
        }
    }
}

/// Signed-in callers of the demo data set, by their place in the matrices.
pub struct Callers {
    pub owner_a: String,
    pub owner_b: String,
    pub expert: String,
    pub agent: String,
    pub admin: String,
}

impl Callers {
    /// `(label, token)` for every caller, the anonymous one first.
    pub fn all(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            ("none", None),
            ("owner_a", Some(&self.owner_a)),
            ("owner_b", Some(&self.owner_b)),
            ("expert", Some(&self.expert)),
            ("agent", Some(&self.agent)),
            ("admin", Some(&self.admin)),
        ]
    }
}

impl TestServer {
    /// Starts a server on a database file, with the demo data.
    pub async fn on_file(path: &std::path::Path) -> TestServer {
        let path = path.to_str().expect("utf-8 path").to_string();
        let options = <Options as clap::Parser>::parse_from([
            "larder-server",
            "--addr",
            "127.0.0.1:0",
            "--db",
            &path,
            "--demo",
        ]);
        let state = larder_server::prepare(options).expect("prepare");
        let running = larder_server::start(state.clone()).await.expect("start");
        let base = format!("http://{}/api/v1", running.addr);
        TestServer {
            state,
            running: Some(running),
            base,
            http: reqwest::Client::new(),
        }
    }

    pub async fn mtm(&self, client_id: &str, secret: &str) -> String {
        let answer = self
            .call(
                "POST",
                "system/mtm",
                None,
                Some(json!({"client_id": client_id, "client_secret": secret})),
            )
            .await;
        assert_eq!(answer.status, 200, "mtm {client_id}: {}", answer.body);
        token_of(&answer.body["result"])
    }

    /// Signs in every demo caller.
    pub async fn callers(&self) -> Callers {
        Callers {
            owner_a: self.login("olivia", "olivia-demo").await,
            owner_b: self.login("noah", "noah-demo").await,
            expert: self.login("curator", "curator-demo").await,
            agent: self.mtm("enhancer", "enhancer-demo").await,
            admin: self.login("admin", "admin-demo").await,
        }
    }

    /// Uploads `bytes` as an artifact of `parent_urn`.
    pub async fn upload(
        &self,
        token: Option<&str>,
        parent_urn: &str,
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Answer {
        let form = reqwest::multipart::Form::new()
            .text("parent_urn", parent_urn.to_string())
            .text("description", "uploaded by a test")
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_string()),
            );
        let mut request = self
            .http
            .post(format!("{}/artifacts/upload", self.base))
            .multipart(form);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("send");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            headers,
            body,
        }
    }

    /// Downloads raw bytes.
    pub async fn download(
        &self,
        token: &str,
        id: &str,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        let response = self
            .http
            .get(format!("{}/artifacts/{id}/download", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("send");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        (
            status,
            headers,
            response.bytes().await.expect("bytes").to_vec(),
        )
    }
}

/// Asserts an error envelope with `status` and `code`.
pub fn assert_error(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{}", answer.body);
    assert_eq!(answer.body["success"], false, "{}", answer.body);
    assert_eq!(answer.body["error"]["code"], code, "{}", answer.body);
    assert!(answer.body["error"]["title"].is_string());
    assert!(answer.body["error"]["detail"].is_string());
    assert!(answer.body["help"].is_string());
}
