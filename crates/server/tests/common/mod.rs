//! A server with a fresh in-memory database, and a small HTTP helper. By default the router
//! answers in process through `tower::ServiceExt::oneshot` (no socket); the `*_socket`
//! constructors serve it on a free port for tests that need a real connection.
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
    /// Set in process: requests go through `oneshot` instead of a socket.
    pub router: Option<axum::Router>,
}

/// The peer address in-process requests claim (the handlers and the sign-in throttle read it).
const PEER: ([u8; 4], u16) = ([127, 0, 0, 1], 40_000);

pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl TestServer {
    /// A server answering in process (no socket), with the given extra command-line arguments.
    pub async fn start(extra: &[&str]) -> TestServer {
        TestServer::in_process(TestServer::default_args(extra))
    }

    /// A server answering in process with exactly these arguments.
    pub async fn start_with(extra: &[&str]) -> TestServer {
        let mut args = vec!["larder-server", "--addr", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        TestServer::in_process(args)
    }

    /// A server answering in process, with the demo data.
    pub async fn demo() -> TestServer {
        TestServer::start(&["--demo"]).await
    }

    fn default_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
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
        args
    }

    /// The router as `start()` builds it for one address, called through `oneshot`.
    fn in_process(args: Vec<&str>) -> TestServer {
        let options = <Options as clap::Parser>::parse_from(args);
        let state = larder_server::prepare(options).expect("prepare");
        let own = std::net::SocketAddr::from(([127, 0, 0, 1], 8080));
        let router =
            larder_server::app::router(state.clone(), larder_server::app::Apis::Both, &[own]);
        TestServer {
            state,
            running: None,
            base: "http://127.0.0.1/api/v1".to_string(),
            http: reqwest::Client::new(),
            router: Some(router),
        }
    }

    /// A demo server on a free port (for tests that need a real socket).
    pub async fn demo_socket() -> TestServer {
        TestServer::start_socket(&["--demo"]).await
    }

    /// Starts a server on a free port with the given extra command-line arguments.
    pub async fn start_socket(extra: &[&str]) -> TestServer {
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
            router: None,
        }
    }

    /// Starts a server on a free port with exactly these arguments.
    pub async fn start_with_socket(extra: &[&str]) -> TestServer {
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
            router: None,
        }
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        if self.router.is_some() {
            let mut headers = Vec::new();
            if let Some(token) = token {
                headers.push(("authorization", format!("Bearer {token}")));
            }
            let bytes = match body {
                Some(body) => {
                    headers.push(("content-type", "application/json".to_string()));
                    serde_json::to_vec(&body).unwrap()
                }
                None => Vec::new(),
            };
            let (status, headers, bytes) = self.oneshot(method, path, &headers, bytes).await;
            return answer(status, headers, bytes);
        }
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
            router: None,
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
        if self.router.is_some() {
            let boundary = "larder-test-boundary-7f3a";
            let mut body = Vec::new();
            for (name, value) in [
                ("parent_urn", parent_urn),
                ("description", "uploaded by a test"),
            ] {
                body.extend_from_slice(
                    format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
                );
            }
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
            );
            body.extend_from_slice(&bytes);
            body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
            let mut headers = vec![(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )];
            if let Some(token) = token {
                headers.push(("authorization", format!("Bearer {token}")));
            }
            let (status, headers, bytes) = self
                .oneshot("POST", "artifacts/upload", &headers, body)
                .await;
            return answer(status, headers, bytes);
        }
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
        if self.router.is_some() {
            let headers = [("authorization", format!("Bearer {token}"))];
            let path = format!("artifacts/{id}/download");
            return self.oneshot("GET", &path, &headers, Vec::new()).await;
        }
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

impl TestServer {
    /// One request through the in-process router, as a socket would deliver it: a `Host` the
    /// server names itself by, and the peer address in the extensions.
    pub async fn oneshot(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        self.oneshot_from(PEER.into(), method, path, headers, body)
            .await
    }

    /// `oneshot` as if from the peer `from`; a `host` among `headers` replaces the default one.
    pub async fn oneshot_from(
        &self,
        from: std::net::SocketAddr,
        method: &str,
        path: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        let uri = format!("/api/v1/{}", path.trim_start_matches('/'));
        self.oneshot_uri(from, method, &uri, headers, body).await
    }

    /// A JSON POST to a `/__faults` control route (`--fault-injection`), through the router.
    pub async fn post_faults(
        &self,
        route: &str,
        body: serde_json::Value,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        let headers = [("content-type", "application/json".to_string())];
        self.oneshot_root("POST", route, &headers, serde_json::to_vec(&body).unwrap())
            .await
    }

    /// `oneshot` to a path outside the API (such as `/__faults`), from the usual peer.
    pub async fn oneshot_root(
        &self,
        method: &str,
        uri: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        self.oneshot_uri(PEER.into(), method, uri, headers, body)
            .await
    }

    async fn oneshot_uri(
        &self,
        from: std::net::SocketAddr,
        method: &str,
        uri: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        use tower::ServiceExt;
        let router = self.router.clone().expect("an in-process server");
        let mut request = axum::http::Request::builder().method(method).uri(uri);
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            request = request.header("host", "127.0.0.1");
        }
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let mut request = request.body(axum::body::Body::from(body)).expect("request");
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(from));
        let response = router.oneshot(request).await.expect("infallible");
        let status = response.status().as_u16();
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in response.headers() {
            headers.append(
                reqwest::header::HeaderName::from_bytes(name.as_str().as_bytes()).unwrap(),
                reqwest::header::HeaderValue::from_bytes(value.as_bytes()).unwrap(),
            );
        }
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        (status, headers, bytes.to_vec())
    }
}

fn answer(status: u16, headers: reqwest::header::HeaderMap, bytes: Vec<u8>) -> Answer {
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Answer {
        status,
        headers,
        body,
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
