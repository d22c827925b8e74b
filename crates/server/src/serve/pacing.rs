//! Two bounds a slow client cannot stretch: a request body must keep up a minimum average rate,
//! and one source holds at most a share of the connection slots.
//!
//! Hand-written because neither tower-http nor hyper offers them: tower-http's
//! `RequestBodyTimeout` restarts its clock on every frame (a body sent a byte at a time never
//! ends), and hyper bounds only the head.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// How fast a body must arrive: `grace` from the end of the head, plus one second for every
/// `bytes_per_second` received. A body behind that schedule fails (see [`TooSlow`]).
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Time allowed before the schedule starts counting.
    pub grace: Duration,
    /// The minimum average rate, in bytes per second.
    pub bytes_per_second: u64,
}

impl Pace {
    /// When a body that has delivered `received` bytes since `started` falls behind.
    fn deadline(&self, started: Instant, received: u64) -> Instant {
        let earned = Duration::from_secs_f64(received as f64 / self.bytes_per_second as f64);
        // Far deadlines are capped at a day: Instant + huge would overflow.
        started + (self.grace + earned).min(Duration::from_secs(86_400))
    }

    /// Wraps a request body in this schedule.
    pub fn body(self, inner: Body) -> Body {
        let started = Instant::now();
        Body::new(Paced {
            inner,
            pace: self,
            started,
            received: 0,
            deadline: Box::pin(tokio::time::sleep_until(self.deadline(started, 0))),
        })
    }
}

/// The error of a body that fell behind its [`Pace`].
#[derive(Debug)]
pub struct TooSlow;

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived slower than this server's minimum rate")
    }
}

impl std::error::Error for TooSlow {}

struct Paced {
    inner: Body,
    pace: Pace,
    started: Instant,
    received: u64,
    deadline: Pin<Box<Sleep>>,
}

impl http_body::Body for Paced {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received = this.received.saturating_add(data.len() as u64);
                    let deadline = this.pace.deadline(this.started, this.received);
                    this.deadline.as_mut().reset(deadline);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(TooSlow.into()))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Open connections per source, shared by every listener of a server. A source is an IPv4
/// address or an IPv6 /64, as the sign-in throttle counts them
/// ([`crate::auth::throttle::source_key`]).
#[derive(Debug)]
pub struct Sources {
    limit: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl Sources {
    /// At most `limit` connections per source.
    pub fn new(limit: usize) -> Sources {
        Sources {
            limit: limit.max(1),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// A slot for a connection from `peer`, or `None` when its source holds its share already.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<SourceSlot> {
        let source = crate::auth::throttle::source_key(Some(peer)).unwrap_or(peer);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(source).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(SourceSlot {
            sources: self.clone(),
            source,
        })
    }

    /// Connections open from `peer`'s source.
    pub fn open_from(&self, peer: IpAddr) -> usize {
        let source = crate::auth::throttle::source_key(Some(peer)).unwrap_or(peer);
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&source).copied().unwrap_or(0)
    }
}

/// One connection's place in its source's share; given back when dropped.
pub struct SourceSlot {
    sources: Arc<Sources>,
    source: IpAddr,
}

impl Drop for SourceSlot {
    fn drop(&mut self) {
        let mut open = self.sources.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&self.source) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.source);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util_free::collect;

    /// Reads a body to its end (a few lines rather than another dependency).
    mod http_body_util_free {
        use super::*;
        use http_body::Body as _;
        pub async fn collect(mut body: Body) -> Result<usize, axum::BoxError> {
            let mut total = 0;
            while let Some(frame) =
                std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
            {
                if let Some(data) = frame?.data_ref() {
                    total += data.len();
                }
            }
            Ok(total)
        }
    }

    fn trickle(bytes: usize, every: Duration) -> Body {
        let stream = futures_util::stream::unfold(0, move |sent| async move {
            if sent == bytes {
                return None;
            }
            tokio::time::sleep(every).await;
            Some((Ok::<_, std::io::Error>(Bytes::from_static(b"x")), sent + 1))
        });
        Body::from_stream(stream)
    }

    #[tokio::test]
    async fn a_trickled_body_fails_once_behind_its_schedule() {
        let pace = Pace {
            grace: Duration::from_millis(500),
            bytes_per_second: 1024,
        };
        let started = Instant::now();
        // Five bytes a second: the schedule allows 500 ms and about a millisecond per byte.
        let error = collect(pace.body(trickle(100, Duration::from_millis(200))))
            .await
            .unwrap_err();
        assert!(error.to_string().contains("minimum rate"), "{error}");
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(500) && took < Duration::from_millis(900),
            "{took:?}"
        );
    }

    #[tokio::test]
    async fn a_body_at_the_rate_arrives_whole() {
        let pace = Pace {
            grace: Duration::from_secs(1),
            bytes_per_second: 100,
        };
        // 200 bytes at 200 bytes a second: ahead of the schedule all the way.
        let read = collect(pace.body(trickle(200, Duration::from_millis(5))))
            .await
            .unwrap();
        assert_eq!(read, 200);
    }

    #[test]
    fn a_source_holds_its_share_and_an_ipv6_64_is_one_source() {
        let sources = Arc::new(Sources::new(2));
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::2".parse().unwrap();
        let other: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        let first = sources.admit(a).unwrap();
        let _second = sources.admit(b).unwrap();
        assert!(sources.admit(a).is_none(), "the /64 holds its share");
        assert!(
            sources.admit(other).is_some(),
            "another /64 is another source"
        );
        drop(first);
        let _third = sources
            .admit(b)
            .expect("a closed connection gives its slot back");
        assert_eq!(sources.open_from(a), 2);
    }
}
