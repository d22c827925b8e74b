//! How many requests the client keeps open to each API at once (interface.md §8: 3 to the data
//! API, 10 to the systemic API). Calls beyond that wait their turn, first come first served; none
//! is dropped. Runtime-free, so it works the same natively and in the browser.
//!
//! Written here rather than taken from `async-lock` (whose `Semaphore` the lockfile holds through
//! leptos) because that semaphore is not first come first served: every poll of its `acquire`
//! first tries to take a permit, so a call arriving just as a permit is given back takes it
//! ahead of the calls already waiting (whose wake-up is still on its way). Here a permit goes
//! to the head of the queue, and a newcomer finds none while anyone is queued.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

/// A counting semaphore with a queue.
pub struct Limiter {
    state: Mutex<State>,
}

struct State {
    free: usize,
    next_ticket: u64,
    queue: VecDeque<(u64, Option<Waker>)>,
}

impl Limiter {
    /// At most `permits` holders at once.
    pub fn new(permits: usize) -> Limiter {
        Limiter {
            state: Mutex::new(State {
                free: permits.max(1),
                next_ticket: 0,
                queue: VecDeque::new(),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a permit; it is given back when the [`Permit`] drops.
    pub fn acquire(&self) -> Acquire<'_> {
        Acquire {
            limiter: self,
            ticket: None,
        }
    }

    /// Permits not held now.
    pub fn available(&self) -> usize {
        self.lock().free
    }

    fn release(&self) {
        let mut state = self.lock();
        state.free += 1;
        if let Some((_, Some(waker))) = state.queue.front() {
            waker.wake_by_ref();
        }
    }
}

/// A held permit.
pub struct Permit<'a> {
    limiter: &'a Limiter,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.limiter.release();
    }
}

/// The wait for a permit.
pub struct Acquire<'a> {
    limiter: &'a Limiter,
    ticket: Option<u64>,
}

impl<'a> Future for Acquire<'a> {
    type Output = Permit<'a>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit<'a>> {
        let limiter = self.limiter;
        let mut state = limiter.lock();
        match self.ticket {
            None if state.free > 0 && state.queue.is_empty() => {
                state.free -= 1;
                Poll::Ready(Permit { limiter })
            }
            None => {
                let ticket = state.next_ticket;
                state.next_ticket += 1;
                state.queue.push_back((ticket, Some(cx.waker().clone())));
                drop(state);
                self.ticket = Some(ticket);
                Poll::Pending
            }
            Some(ticket) => {
                if state.free > 0 && state.queue.front().is_some_and(|(t, _)| *t == ticket) {
                    state.queue.pop_front();
                    state.free -= 1;
                    // The next in line may also find a permit free.
                    if state.free > 0 {
                        if let Some((_, Some(waker))) = state.queue.front() {
                            waker.wake_by_ref();
                        }
                    }
                    drop(state);
                    self.ticket = None;
                    return Poll::Ready(Permit { limiter });
                }
                if let Some(entry) = state.queue.iter_mut().find(|(t, _)| *t == ticket) {
                    entry.1 = Some(cx.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire<'_> {
    // A wait given up (its call was dropped) leaves the queue, and lets the next one in.
    fn drop(&mut self) {
        if let Some(ticket) = self.ticket {
            let mut state = self.limiter.lock();
            let was_first = state.queue.front().is_some_and(|(t, _)| *t == ticket);
            state.queue.retain(|(t, _)| *t != ticket);
            if was_first && state.free > 0 {
                if let Some((_, Some(waker))) = state.queue.front() {
                    waker.wake_by_ref();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use futures::future::join_all;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_the_permits_and_everyone_served_in_order() {
        let limiter = Limiter::new(3);
        let (open, peak) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let order = Mutex::new(Vec::new());
        let calls = (0..10).map(|n| {
            let (limiter, open, peak, order) = (&limiter, &open, &peak, &order);
            async move {
                let _permit = limiter.acquire().await;
                let now = open.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                order.lock().unwrap().push(n);
                yield_now().await;
                yield_now().await;
                open.fetch_sub(1, Ordering::SeqCst);
            }
        });
        block_on(join_all(calls));
        assert_eq!(peak.load(Ordering::SeqCst), 3);
        assert_eq!(*order.lock().unwrap(), (0..10).collect::<Vec<_>>());
        assert_eq!(limiter.available(), 3);
    }

    #[test]
    fn a_wait_given_up_frees_its_place() {
        let limiter = Limiter::new(1);
        let held = block_on(limiter.acquire());
        let mut waiting = Box::pin(limiter.acquire());
        let waker = futures::task::noop_waker();
        assert!(waiting
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_pending());
        drop(waiting);
        drop(held);
        let _again = block_on(limiter.acquire());
        assert_eq!(limiter.available(), 0);
    }

    async fn yield_now() {
        let mut yielded = false;
        futures::future::poll_fn(|cx| {
            if yielded {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await
    }
}
