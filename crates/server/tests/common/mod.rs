//! A server on a free port with a fresh in-memory database, and a small HTTP helper.
#![allow(dead_code)]

use larder_server::{Options, Running};
use serde_json::{json, Value};

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
        answer.body["result"]["access_token"]
            .as_str()
            .expect("access_token")
            .to_string()
    }

    pub async fn stop(mut self) {
        if let Some(running) = self.running.take() {
            running.stop().await;
        }
    }
}
