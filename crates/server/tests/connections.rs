//! Slow clients, with raw sockets: the header timeout, the idle timeout, the connection cap, and
//! a stop that still ends while such clients hang on.

mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads until the server closes the connection (or resets it); `None` if it is still open
/// after `within`. Returns what was read and when it ended.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<(String, Instant)> {
    let mut seen = Vec::new();
    let read_all = async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return Instant::now(),
                Ok(n) => seen.extend_from_slice(&buffer[..n]),
            }
        }
    };
    let ended = tokio::time::timeout(within, read_all).await.ok()?;
    Some((String::from_utf8_lossy(&seen).into_owned(), ended))
}

async fn connect(server: &TestServer) -> TcpStream {
    let addr = server.running.as_ref().expect("running").addr;
    TcpStream::connect(addr).await.expect("connect")
}

#[tokio::test]
async fn half_sent_headers_are_closed_after_the_header_timeout() {
    let server = TestServer::start_socket(&["--header-timeout", "1", "--idle-timeout", "30"]).await;
    let mut stream = connect(&server).await;
    let opened = Instant::now();
    stream
        .write_all(b"GET /api/v1/system/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    // Keep bytes moving (a header line every 200 ms) so only the header timeout can end it.
    let trickle = async {
        for _ in 0..25 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if stream.write_all(b"X-Slow: 1\r\n").await.is_err() {
                break;
            }
        }
    };
    trickle.await;
    let elapsed = opened.elapsed();
    let (seen, _) = closed_within(&mut stream, Duration::from_secs(1))
        .await
        .expect("a connection still sending headers after 5 s is closed");
    assert!(!seen.contains(" 200 "), "answered: {seen}");
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
    server.stop().await;
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let server = TestServer::start_socket(&["--header-timeout", "30", "--idle-timeout", "1"]).await;
    let mut stream = connect(&server).await;
    stream
        .write_all(b"GET /api/v1/system/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = [0u8; 4096];
    let n = stream.read(&mut buffer).await.unwrap();
    let answered = Instant::now();
    let head = String::from_utf8_lossy(&buffer[..n]).into_owned();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        !head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    let (_, ended) = closed_within(&mut stream, Duration::from_secs(4))
        .await
        .expect("an idle kept-alive connection is closed");
    let idle = ended - answered;
    assert!(idle >= Duration::from_millis(900), "closed after {idle:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_stalled_request_body_ends_after_the_idle_timeout() {
    let server = TestServer::start_socket(&["--header-timeout", "30", "--idle-timeout", "1"]).await;
    let mut stream = connect(&server).await;
    let opened = Instant::now();
    stream
        .write_all(
            b"POST /api/v1/system/login HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"username\"",
        )
        .await
        .unwrap();
    let (seen, ended) = closed_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("a connection whose body stalls is closed");
    assert!(!seen.contains(" 200 "), "answered: {seen}");
    assert!(ended - opened >= Duration::from_millis(900));
    server.stop().await;
}

#[tokio::test]
async fn past_the_cap_a_sign_in_waits_for_a_slow_connection_to_time_out() {
    // Every connection comes from 127.0.0.1 here: the share per source is the whole cap.
    let server = TestServer::start_socket(&[
        "--max-connections",
        "2",
        "--max-connections-per-source",
        "2",
        "--header-timeout",
        "1",
        "--idle-timeout",
        "30",
        "--user",
        "ada:ada-secret-1",
    ])
    .await;
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut stream = connect(&server).await;
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.")
            .await
            .unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let answer = tokio::time::timeout(
        Duration::from_secs(5),
        server.call(
            "POST",
            "system/login",
            None,
            Some(json!({"username": "ada", "password": "ada-secret-1"})),
        ),
    )
    .await
    .expect("the sign-in is answered once the slow connections time out");
    assert_eq!(answer.status, 200, "{}", answer.body);
    // It waited in the listen queue: the cap held until the header timeout made room.
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(700),
        "waited only {waited:?}"
    );
    for mut stream in slow {
        assert!(closed_within(&mut stream, Duration::from_secs(1))
            .await
            .is_some());
    }
    server.stop().await;
}

#[tokio::test]
async fn stop_ends_while_clients_hang_on() {
    let server = TestServer::start_socket(&["--header-timeout", "1", "--idle-timeout", "1"]).await;
    let mut half = connect(&server).await;
    half.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    let mut idle = connect(&server).await;
    idle.write_all(b"GET /api/v1/system/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut buffer = [0u8; 1024];
    assert!(idle.read(&mut buffer).await.unwrap() > 0);
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("stop ends");
}

#[test]
fn the_limits_have_sane_defaults_and_bounds() {
    use clap::Parser;
    use larder_server::Options;
    let parse = |extra: &[&str]| {
        let mut args = vec!["larder-server"];
        args.extend_from_slice(extra);
        Options::try_parse_from(args)
    };
    let defaults = parse(&[]).unwrap();
    assert_eq!(defaults.header_timeout, Duration::from_secs(10));
    assert_eq!(defaults.idle_timeout, Duration::from_secs(60));
    assert_eq!(defaults.max_connections, 1024);
    assert_eq!(defaults.min_body_rate, 1024);
    assert_eq!(defaults.connections_per_source(), 256);
    let shared = parse(&[
        "--max-connections",
        "10",
        "--max-connections-per-source",
        "40",
    ])
    .unwrap();
    assert_eq!(
        shared.connections_per_source(),
        10,
        "never more than the cap"
    );
    let set = parse(&["--header-timeout", "0.5", "--idle-timeout", "90"]).unwrap();
    assert_eq!(set.header_timeout, Duration::from_millis(500));
    assert_eq!(set.idle_timeout, Duration::from_secs(90));
    for bad in [
        ["--header-timeout", "0"],
        ["--header-timeout", "1e30"],
        ["--idle-timeout", "-1"],
        ["--idle-timeout", "NaN"],
        ["--max-connections", "0"],
        ["--max-connections-per-source", "0"],
        ["--min-body-rate", "0"],
    ] {
        assert!(parse(&bad).is_err(), "{bad:?}");
    }
}

#[tokio::test]
async fn a_slow_handler_is_not_cut_by_the_idle_timeout() {
    let server = TestServer::start_socket(&["--idle-timeout", "0.5", "--fault-injection"]).await;
    let origin = server.base.trim_end_matches("/api/v1").to_string();
    let armed = server
        .http
        .post(format!("{origin}/__faults"))
        .json(&json!({
            "method": "GET",
            "path": "/api/v1/system/ping",
            "faults": [{"kind": "delay", "delay_ms": 1500}],
        }))
        .send()
        .await
        .unwrap();
    assert!(armed.status().is_success());
    let started = Instant::now();
    let answer = server.call("GET", "system/ping", None, None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(started.elapsed() >= Duration::from_millis(1400));
    server.stop().await;
}

/// A sign-in head whose body of `length` bytes is yet to come.
fn sign_in_head(length: usize) -> String {
    format!(
        "POST /api/v1/system/login HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    )
}

/// A connection to the server from the loopback address `from` (Linux answers all of
/// 127.0.0.0/8 on the loopback interface), so tests can play several hosts.
async fn connect_from(server: &TestServer, from: &str) -> TcpStream {
    let addr = server.running.as_ref().expect("running").addr;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(format!("{from}:0").parse().unwrap())
        .expect("bind a loopback source");
    socket.connect(addr).await.expect("connect")
}

/// Sends one whole sign-in on `stream` and answers the status line.
async fn sign_in_on(stream: &mut TcpStream) -> String {
    let body = json!({"username": "ada", "password": "ada-secret-1"}).to_string();
    let request = format!("{}{body}", sign_in_head(body.len()));
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buffer = [0u8; 4096];
    let n = stream.read(&mut buffer).await.unwrap_or(0);
    let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
    text.lines().next().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_body_sent_a_byte_at_a_time_ends_at_the_minimum_rate() {
    // The idle timeout is far off and every byte restarts it: only the body's rate (the
    // default, 1024 bytes a second after --header-timeout) can end this.
    let server = TestServer::start_socket(&["--header-timeout", "1", "--idle-timeout", "30"]).await;
    let mut stream = connect(&server).await;
    let opened = Instant::now();
    stream
        .write_all(sign_in_head(1000).as_bytes())
        .await
        .unwrap();
    // A byte every 100 ms: 10 bytes a second against the 1024 asked for, after a 1 s grace.
    let trickle = async {
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if stream.write_all(b" ").await.is_err() {
                break;
            }
        }
    };
    let within = tokio::time::timeout(Duration::from_secs(4), trickle).await;
    let (seen, ended) = closed_within(&mut stream, Duration::from_secs(2))
        .await
        .expect("a body behind the minimum rate is cut");
    assert!(
        within.is_ok() || ended - opened < Duration::from_secs(6),
        "still open after {:?}",
        opened.elapsed()
    );
    assert!(!seen.contains(" 200 "), "answered: {seen}");
    let took = ended - opened;
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "{took:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn one_host_holds_a_share_of_the_slots_and_another_still_signs_in() {
    // Defaults but for the cap: one source may hold a quarter of it (2 of 8).
    let server =
        TestServer::start_socket(&["--max-connections", "8", "--user", "ada:ada-secret-1"]).await;
    let mut slow = Vec::new();
    for _ in 0..8 {
        let mut stream = connect_from(&server, "127.0.0.1").await;
        let _ = stream.write_all(sign_in_head(1000).as_bytes()).await;
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Keep the admitted ones busy, a byte at a time, while another host signs in.
    for stream in &mut slow {
        let _ = stream.write_all(b" ").await;
    }
    let mut other = connect_from(&server, "127.0.0.2").await;
    let status = tokio::time::timeout(Duration::from_secs(3), sign_in_on(&mut other))
        .await
        .expect("another host's sign-in is answered while one host holds slow connections");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    // The first host got its share; the connections past it were told so and closed.
    let mut refused = 0;
    for stream in &mut slow {
        if let Some((seen, _)) = closed_within(stream, Duration::from_millis(200)).await {
            assert!(
                seen.is_empty() || seen.starts_with("HTTP/1.1 503"),
                "{seen}"
            );
            refused += 1;
        }
    }
    assert_eq!(refused, 6, "two of the eight are served");
    server.stop().await;
}
