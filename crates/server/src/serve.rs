//! The accept loop: HTTP/1.1 on hyper with the limits `axum::serve` does not offer.
//!
//! - **Header timeout** (`--header-timeout`): hyper's own `header_read_timeout`. Hyper starts
//!   that clock whenever it waits for a request head, so it also closes a kept-alive connection
//!   on which no next request begins in time.
//! - **Idle timeout** (`--idle-timeout`): a connection on which no byte moves either way while
//!   no handler is at work is closed (a client that stops reading a long answer, or sends
//!   nothing at all); a request body that stalls that long fails (tower-http's
//!   `RequestBodyTimeout`).
//! - **Minimum body rate** (`--min-body-rate`): a request body must arrive within
//!   `--header-timeout` plus one second per `--min-body-rate` bytes received, else it fails
//!   (the handler answers an error and the connection closes). The idle timeout alone restarts
//!   on every byte, so a body sent a byte a minute would hold its slot for days.
//! - **Connection cap** (`--max-connections`): at the cap the loop stops accepting until a
//!   connection ends, so new ones wait in the kernel's listen queue instead of being refused;
//!   the timeouts above guarantee slow connections make room.
//! - **Share per source** (`--max-connections-per-source`, a quarter of the cap by default): one
//!   IPv4 address or IPv6 /64 holds at most that many of the slots; a further connection from
//!   it is answered 503 and closed at once, so one host cannot take every slot even with
//!   requests that keep inside the limits above.
//!
//! Graceful shutdown: on stop the listener closes, idle connections close at once, and
//! requests in flight are answered first (hyper-util's `GracefulShutdown`).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

mod pacing;
pub use pacing::{Pace, Sources, TooSlow};

/// The limits of one listener, from the command line.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest time to receive a request head.
    pub header_timeout: Duration,
    /// Longest time nothing may move on a connection with no handler at work.
    pub idle_timeout: Duration,
    /// How fast a request body must arrive.
    pub pace: Pace,
    /// Open connections allowed at once (shared by all listeners of the server).
    pub connections: Arc<Semaphore>,
    /// Open connections allowed per source (shared by all listeners of the server).
    pub sources: Arc<Sources>,
}

/// Serves `router` on `listener` until `stop` turns true, then drains the open connections.
pub fn spawn(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    mut stop: watch::Receiver<bool>,
    limits: Limits,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout);
        let router = tower_http::timeout::RequestBodyTimeout::new(router, limits.idle_timeout);
        loop {
            let permit = tokio::select! {
                permit = limits.connections.clone().acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_) => break,
                },
                () = stopped(&mut stop) => break,
            };
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = stopped(&mut stop) => break,
            };
            let (stream, remote) = match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Some(slot) = limits.sources.admit(remote.ip()) else {
                tracing::debug!(%remote, "connection refused: its source holds its share");
                drop(permit);
                tokio::spawn(refuse(stream));
                continue;
            };
            let _ = stream.set_nodelay(true);
            let activity = Arc::new(Activity::new());
            let io = TokioIo::new(Watched {
                io: stream,
                activity: activity.clone(),
            });
            let router = router.clone();
            let busy = activity.clone();
            let pace = limits.pace;
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let (parts, body) = request.into_parts();
                let mut request =
                    hyper::Request::from_parts(parts, pace.body(axum::body::Body::new(body)));
                // Handlers and the sign-in throttle read the peer's address.
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(remote));
                let working = Working::new(busy.clone());
                let answer = router.clone().oneshot(request);
                async move {
                    let answer = answer.await;
                    drop(working);
                    answer
                }
            });
            let connection = graceful.watch(http.serve_connection(io, service));
            let idle_timeout = limits.idle_timeout;
            tokio::spawn(async move {
                tokio::select! {
                    result = connection => {
                        if let Err(error) = result {
                            tracing::debug!(%error, %remote, "connection ended");
                        }
                    }
                    () = activity.idle(idle_timeout) => {
                        tracing::debug!(%remote, "idle connection closed");
                    }
                }
                drop(slot);
                drop(permit);
            });
        }
        drop(listener);
        graceful.shutdown().await;
    })
}

/// Tells a connection past its source's share to come back later, and closes it. A few bytes
/// written once, with a short deadline: a client that does not read them is not waited for.
async fn refuse(mut stream: tokio::net::TcpStream) {
    const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\
        retry-after: 1\r\nconnection: close\r\n\r\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(BUSY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

/// When a connection last moved a byte, and how many of its requests are being handled.
struct Activity {
    opened: Instant,
    last_ms: AtomicU64,
    working: AtomicUsize,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            opened: Instant::now(),
            last_ms: AtomicU64::new(0),
            working: AtomicUsize::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn touch(&self) {
        self.last_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    /// Ends once nothing has moved for `limit` while no handler is at work.
    async fn idle(&self, limit: Duration) {
        let limit_ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        loop {
            let quiet = self
                .now_ms()
                .saturating_sub(self.last_ms.load(Ordering::Relaxed));
            if quiet >= limit_ms && self.working.load(Ordering::Relaxed) == 0 {
                return;
            }
            // Busy past the limit: look again a whole limit later rather than spin.
            let wait = match limit_ms.saturating_sub(quiet) {
                0 => limit_ms,
                left => left,
            }
            .max(10);
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
    }
}

/// Counts a request as being handled while it lives.
struct Working(Arc<Activity>);

impl Working {
    fn new(activity: Arc<Activity>) -> Working {
        activity.working.fetch_add(1, Ordering::Relaxed);
        Working(activity)
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        self.0.touch();
        self.0.working.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A socket that records when a byte last moved through it.
struct Watched<T> {
    io: T,
    activity: Arc<Activity>,
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}
