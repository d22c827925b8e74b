//! Acknowledged writes survive a crash: the real binary is killed with SIGKILL in the middle of
//! a burst of writes, restarted on the same database, and every write it answered 201 is there.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

fn start(db: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_larder-server"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--db",
            db,
            "--user",
            "writer:writer-pw:admin",
        ])
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start larder-server");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("the server printed its address")
            .expect("read");
        if let Some(url) = line.strip_prefix("larder-server listening on ") {
            break url.trim().to_string();
        }
    };
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, format!("{url}/api/v1"))
}

async fn token(http: &reqwest::Client, base: &str) -> String {
    let answer: serde_json::Value = http
        .post(format!("{base}/system/login"))
        .json(&json!({"username": "writer", "password": "writer-pw"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["result"]["token"]
        .as_str()
        .or_else(|| answer["result"]["access_token"].as_str())
        .expect("a token")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_writes_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("durable.db").to_str().unwrap().to_string();
    let http = reqwest::Client::new();
    let (mut server, base) = start(&db);
    let bearer = token(&http, &base).await;

    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut writers = Vec::new();
    for writer in 0..8 {
        let (http, base, bearer, acknowledged) = (
            http.clone(),
            base.clone(),
            bearer.clone(),
            acknowledged.clone(),
        );
        writers.push(tokio::spawn(async move {
            for n in 0..400 {
                let slug = format!("durable-{writer}-{n}");
                let sent = http
                    .post(format!("{base}/articles"))
                    .bearer_auth(&bearer)
                    .json(
                        &json!({"urn": slug, "title": format!("Write {writer}/{n}"), "content": "x",
                                  "venue": "Durable Journal", "authors": ["W. Riter"]}),
                    )
                    .timeout(Duration::from_secs(5))
                    .send()
                    .await;
                match sent {
                    Ok(answer) if answer.status().as_u16() == 201 => {
                        acknowledged.lock().unwrap().push(slug)
                    }
                    Ok(answer) if answer.status().is_client_error() => {
                        panic!(
                            "a write was refused: {}",
                            answer.text().await.unwrap_or_default()
                        )
                    }
                    // The server died under us: what was not acknowledged is allowed to be lost.
                    _ => break,
                }
            }
        }));
    }
    // Kill in the middle of the burst, once a good number of writes were acknowledged.
    let started = std::time::Instant::now();
    while acknowledged.lock().unwrap().len() < 150 {
        assert!(
            started.elapsed() < Duration::from_secs(60) && !writers.iter().all(|w| w.is_finished()),
            "the writers stopped before 150 writes were acknowledged"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().expect("SIGKILL");
    server.wait().unwrap();
    for writer in writers {
        writer.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        acknowledged.len() >= 150 && acknowledged.len() < 3200,
        "the kill came mid-burst: {}",
        acknowledged.len()
    );

    let (mut restarted, base) = start(&db);
    let bearer = token(&http, &base).await;
    let mut missing = Vec::new();
    for slug in &acknowledged {
        let answer = http
            .get(format!("{base}/articles/{slug}"))
            .bearer_auth(&bearer)
            .send()
            .await
            .unwrap();
        if answer.status().as_u16() != 200 {
            missing.push(slug.clone());
        }
    }
    restarted.kill().unwrap();
    restarted.wait().unwrap();
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged writes were lost: {missing:?}",
        missing.len(),
        acknowledged.len()
    );
}
