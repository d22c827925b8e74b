//! The slow-body client beside the sessions (security review 3, finding 1): it keeps `SLOTS`
//! sign-ins open whose bodies arrive a byte every 250 ms, far under the server's minimum rate,
//! and checks that the server cuts each one (closes it, or answers it with an error) within
//! `CUT_WITHIN` of opening, while the sessions go on without an unexpected answer. A slot whose
//! connection is cut before the run ends opens another.

use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Slow connections held at once (well inside one source's share of the default cap, 256).
const SLOTS: usize = 16;
/// The longest a slow connection may live: the default `--header-timeout` (10 s) plus the few
/// bytes it sent, with a wide margin for a loaded machine.
const CUT_WITHIN: Duration = Duration::from_secs(30);
/// One byte per this: 4 bytes a second against the default minimum of 1,024.
const TRICKLE: Duration = Duration::from_millis(250);

/// What the slow client saw.
#[derive(Default)]
pub struct Slow {
    /// Connections opened.
    pub opened: usize,
    /// Connections the server cut in time.
    pub cut: usize,
    /// The longest a connection lived before it was cut, in seconds.
    pub longest: f64,
    /// What went wrong: a slow body answered 2xx, or a connection still open past `CUT_WITHIN`.
    pub unexpected: Vec<String>,
}

impl Slow {
    /// A line for the report.
    pub fn line(&self) -> String {
        format!(
            "slow bodies: {} connections opened, {} cut by the server, the longest after {:.1} s\n",
            self.opened, self.cut, self.longest
        )
    }

    /// The figures for report.json.
    pub fn json(&self) -> Value {
        json!({
            "opened": self.opened,
            "cut": self.cut,
            "longest_seconds": self.longest,
            "unexpected": self.unexpected,
        })
    }
}

/// Runs the slots until `deadline` (each finishes the connection it has open).
pub async fn run(origin: &str, deadline: Instant) -> Result<Slow> {
    let address = origin
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let slots: Vec<_> = (0..SLOTS)
        .map(|_| {
            let address = address.clone();
            tokio::spawn(async move {
                let mut slow = Slow::default();
                loop {
                    let outcome = one(&address).await;
                    slow.opened += 1;
                    match outcome {
                        Ok(lived) => {
                            slow.cut += 1;
                            slow.longest = slow.longest.max(lived.as_secs_f64());
                        }
                        Err(problem) => slow.unexpected.push(problem),
                    }
                    if Instant::now() >= deadline {
                        return slow;
                    }
                }
            })
        })
        .collect();
    let mut all = Slow::default();
    for slot in slots {
        let slow = slot.await?;
        all.opened += slow.opened;
        all.cut += slow.cut;
        all.longest = all.longest.max(slow.longest);
        all.unexpected.extend(slow.unexpected);
    }
    Ok(all)
}

/// One slow sign-in: how long it lived until the server cut it, or what went wrong.
async fn one(address: &str) -> Result<Duration, String> {
    let opened = Instant::now();
    let stream = TcpStream::connect(address)
        .await
        .map_err(|e| format!("slow client: connect: {e}"))?;
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "POST /api/v1/system/login HTTP/1.1\r\nHost: {address}\r\n\
         Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
    );
    if writer.write_all(head.as_bytes()).await.is_err() {
        return Ok(opened.elapsed());
    }
    let mut buffer = [0u8; 1024];
    loop {
        if opened.elapsed() > CUT_WITHIN {
            return Err(format!(
                "slow client: a body a byte every {TRICKLE:?} was still open after {CUT_WITHIN:?}"
            ));
        }
        tokio::select! {
            read = reader.read(&mut buffer) => {
                return match read {
                    Ok(0) | Err(_) => Ok(opened.elapsed()),
                    Ok(n) => {
                        let answer = String::from_utf8_lossy(&buffer[..n]);
                        if answer.starts_with("HTTP/1.1 2") {
                            Err(format!("slow client: a trickled sign-in was answered {}", answer.lines().next().unwrap_or_default()))
                        } else {
                            Ok(opened.elapsed())
                        }
                    }
                };
            }
            () = tokio::time::sleep(TRICKLE) => {
                if writer.write_all(b" ").await.is_err() {
                    return Ok(opened.elapsed());
                }
            }
        }
    }
}
