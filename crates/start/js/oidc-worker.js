// Larder's carrier for a sign-in under way at the identity provider (issue 42).
//
// A top-level redirect to the provider unloads the page, but the sign-in's `state`, `nonce` and
// PKCE verifier must come back with it, and nothing may keep them at rest: no web storage,
// IndexedDB, cookies of the console's origin or URLs. This service worker keeps them in its
// memory only. It has no fetch handler, so it never sees or changes a request of the console;
// it answers two messages, each with a MessageChannel port for the answer:
//
//   {op: 'put', key, value}  keeps `value` (a string: larder_start::oidc::pending's text) under
//                            `key` (the sign-in's `state`); answers {ok: true}
//   {op: 'take', key}        answers {ok: true, value} (null when nothing is kept under `key`)
//                            and forgets it: a value is given back once
//
// Anything else answers {ok: false}. Only pages of the console's own origin can message it (the
// browser's rule for service workers). Values older than 10 minutes are forgotten, at most 16 are
// kept, each at most 4 KB.
//
// A browser stops an idle worker after about 30 s, and its memory with it. A put keeps it awake
// until its value is taken (or 10 minutes pass; browsers cap this at about 5 minutes), so a
// person typing their password at the provider usually still finds the values on return; when
// the worker was stopped anyway, `take` answers null and the console says so beside its "Sign in
// with" button: one click, and the provider's session skips its form.
const TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 16;
const MAX_KEY = 128;
const MAX_VALUE = 4096;

/** key → {value, at, release}: `release` ends the put's waitUntil. */
const held = new Map();

function forgetOld(now) {
  for (const [key, entry] of held) {
    if (now - entry.at > TTL_MS) {
      held.delete(key);
      entry.release();
    }
  }
}

// A new version of this script replaces the old at once: it holds nothing worth waiting for.
self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  const { op, key, value } = event.data ?? {};
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY) {
    port.postMessage({ ok: false });
    return;
  }
  const now = Date.now();
  forgetOld(now);
  if (op === 'put' && typeof value === 'string' && value.length <= MAX_VALUE) {
    held.get(key)?.release();
    if (!held.has(key) && held.size >= MAX_ENTRIES) {
      const [oldest, entry] = held.entries().next().value;
      held.delete(oldest);
      entry.release();
    }
    let release;
    const taken = new Promise((resolve) => { release = resolve; });
    held.delete(key);
    held.set(key, { value, at: now, release });
    event.waitUntil(Promise.race([taken, new Promise((resolve) => setTimeout(resolve, TTL_MS))]));
    port.postMessage({ ok: true });
  } else if (op === 'take') {
    const entry = held.get(key);
    held.delete(key);
    entry?.release();
    port.postMessage({ ok: true, value: entry ? entry.value : null });
  } else {
    port.postMessage({ ok: false });
  }
});
