import { test as base, expect, Page } from '@playwright/test';

// Every journey imports `test` from here, so two guards run around each one without being asked:
// - a panic, an uncaught error or a Content-Security-Policy violation in the page fails it;
// - afterwards, no token the page sent and no demo password is in localStorage, sessionStorage,
//   IndexedDB, the Cache API, a cookie, or any URL the page requested or showed (issue 8: the
//   token lives in memory only). At an identity provider's token endpoint (issue 42) the tokens
//   it answers and the PKCE verifier and refresh token the page sends count as such tokens.

const DEMO_PASSWORDS = ['admin-demo', 'curator-demo', 'olivia-demo', 'noah-demo', 'family-demo', 'enhancer-demo', 'guest-demo',
  // realprod's identity stand-in (helpers.ts `person`).
  'alice-pw-1', 'bob-pw-1', 'admin-pw-1', 'expert-pw-1'];

/** Everything the page keeps in browser storage, as text. */
async function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = [];
    const dump = (storage: Storage) => {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i) ?? '';
        parts.push(`${key}=${storage.getItem(key)}`);
      }
    };
    dump(localStorage);
    dump(sessionStorage);
    parts.push(document.cookie);
    // The Cache API: every cached request and its answer (a service worker could keep one).
    if (globalThis.caches) {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          parts.push(`cache ${name} ${request.url}=${await (await cache.match(request))?.text()}`);
        }
      }
    }
    // IndexedDB: every record of every store of every database the origin has.
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const all = db.transaction(store, 'readonly').objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        });
        parts.push(`${info.name}/${store}=${JSON.stringify(rows)}`);
      }
      db.close();
    }
    return parts.join('\n');
  });
}

export const test = base.extend<{ guard: void }>({
  guard: [
    async ({ page, context }, use) => {
      const errors: string[] = [];
      const secrets = new Set<string>(DEMO_PASSWORDS);
      const urls: string[] = [];
      page.on('pageerror', (e) => errors.push(`uncaught: ${e}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && /panicked|Content Security Policy|RuntimeError/.test(m.text())) {
          errors.push(m.text());
        }
      });
      // Token requests (an OAuth `grant_type` form) and their answers, read before the checks.
      const tokenAnswers: Promise<void>[] = [];
      page.on('request', (request) => {
        urls.push(request.url());
        const authorization = request.headers()['authorization'] ?? '';
        if (authorization.startsWith('Bearer ')) secrets.add(authorization.slice('Bearer '.length));
        const form = request.method() === 'POST' ? request.postData() ?? '' : '';
        if (/(^|&)grant_type=/.test(form)) {
          const sent = new URLSearchParams(form);
          for (const key of ['code_verifier', 'refresh_token']) {
            const value = sent.get(key);
            if (value) secrets.add(value);
          }
          tokenAnswers.push(request.response().then(async (response) => {
            const answer = await response?.json().catch(() => null);
            for (const key of ['access_token', 'refresh_token', 'id_token']) {
              if (typeof answer?.[key] === 'string' && answer[key]) secrets.add(answer[key]);
            }
          }).catch(() => undefined));
        }
      });
      page.on('framenavigated', (frame) => urls.push(frame.url()));

      await use();
      await Promise.all(tokenAnswers);

      expect(errors, 'no panic, uncaught error or CSP violation in the page').toEqual([]);
      const cookies = JSON.stringify(await context.cookies());
      // A page left on another origin (or closed) has no storage of ours to read.
      const ours = !page.isClosed() && page.url().startsWith(new URL(process.env.BASE_URL!).origin);
      const stored = ours ? await storedText(page) : '';
      for (const secret of secrets) {
        const where = [
          stored.includes(secret) && 'browser storage',
          cookies.includes(secret) && 'a cookie',
          urls.find((u) => u.includes(secret) || u.includes(encodeURIComponent(secret))),
        ].filter(Boolean);
        expect(where, `a secret (${secret.slice(0, 12)}…) escaped memory`).toEqual([]);
      }
    },
    { auto: true },
  ],
});

export { expect };
