// The browser half of `cargo xtask bench`: headless Debian Chromium driven by Playwright's
// library (never a downloaded browser). Prints one JSON object on stdout.
//
//   node browser.mjs start CONSOLE_URL FLOOR_URL RUNS loopback|throttled [NAME=URL ...] [--check=NAME ...] [--before=URL]
//   node browser.mjs list CONSOLE_URL PATH ROWS RUNS USER PASSWORD
//   node browser.mjs parse FILE RUNS
//   LARDER_BENCH_TOKEN=... node browser.mjs download CONSOLE_URL RECORD_PATH TITLE ARTIFACT_ID RUNS USER PASSWORD
//   node browser.mjs export CONSOLE_URL LIST_PATH ROWS RUNS USER PASSWORD
//   node browser.mjs household-export CONSOLE_URL MEMBERS RUNS USER PASSWORD [FROM TO [throttled] [json]]
//   node browser.mjs silent OIDC_CONSOLE_URL PLAIN_CONSOLE_URL PROVIDER_HOST RUNS USER PASSWORD
import { readFileSync } from 'node:fs';
import { freshBrowser, watchViolations, MOBILE, signedInPage, goInApp } from './common.mjs';

/** Records, in page time (ms since navigation start): when a `form` is first in the DOM, and
 * when a form's sign-in button is first enabled (the moment signing in works), with the bytes
 * on the wire by then (navigation and every resource finished by then, headers included); the
 * frame in which a level-1 heading reading `until` (the page after signing in) is first
 * painted with list items beside it (the members: the start-up module's view of the household
 * or the console's page, whichever comes first); and the frame in which a button reading
 * `working` (the console's page, working) is first painted. `label` is the button's text in
 * the page's language, when not English ("Σύνδεση"). */
const WATCH_SIGN_IN = ({ until, working, label, list }) => {
  window.__bytesUntil = (t) => {
    const nav = performance.getEntriesByType('navigation')[0];
    let sum = nav ? nav.transferSize : 0;
    const files = [];
    for (const e of performance.getEntriesByType('resource')) {
      if (e.responseEnd <= t) { sum += e.transferSize; files.push([e.name.split('/').pop(), e.transferSize]); }
    }
    return { bytes: sum, files };
  };
  performance.setResourceTimingBufferSize(1000);
  const seen = () => {
    const now = performance.now();
    if (window.__formAt === undefined && document.querySelector('form')) window.__formAt = now;
    if (until && window.__headingAt === undefined
      && [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === until
        && h.closest('section, main')?.querySelector('li'))) {
      window.__headingAt = null;
      requestAnimationFrame(() => { window.__headingAt = performance.now(); });
    }
    if (working && window.__workingAt === undefined
      && [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === working)) {
      window.__workingAt = null;
      requestAnimationFrame(() => { window.__workingAt = performance.now(); });
    }
    // The list page working: its rows (a link each) and its search box, the console's own.
    if (list && window.__listAt === undefined
      && document.querySelector('table.records tbody tr a') && document.querySelector('form[role=search] input')) {
      window.__listAt = null;
      requestAnimationFrame(() => { window.__listAt = performance.now(); });
    }
    if (window.__signInAt === undefined) {
      // A button, or an `<input type=submit>` (Refine's headless AuthPage has one).
      const ready = [...document.querySelectorAll('form button, form input[type=submit]')]
        .some((b) => {
          const text = (b.tagName === 'INPUT' ? b.value : b.textContent).trim();
          return !b.disabled && (label ? text === label : /^(sign in|log ?in)$/i.test(text));
        });
      if (ready) {
        window.__signInAt = now;
        window.__atSignIn = window.__bytesUntil(now);
      }
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  document.addEventListener('DOMContentLoaded', seen);
};

/** One fresh load of `url`: until signing in works. With `o.user` ([name, password]), then
 * signing in: at once (the moment "Sign in" works), or `o.later` ms after it works, as a person
 * who types does; and waiting for `o.until` (a level-1 heading with members beside it) and
 * `o.working` (a button of the console's page), or with `o.list` for the list page working (its
 * rows and its search box). With `o.check` (a peer's [user, password]), then signing in through
 * the peer's form (its text field and password field) and waiting for "Signed in as USER":
 * proof that the peer really signs in against the server. `o.locale` sets the browser's
 * language and `o.label` the button's text in it. */
async function startOnce(url, violations, throttled, o) {
  const browser = await freshBrowser(o.locale);
  try {
    const page = browser.context.pages()[0] ?? await browser.context.newPage();
    watchViolations(page, violations);
    if (throttled) {
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', MOBILE);
    }
    await page.addInitScript(WATCH_SIGN_IN, {
      until: o.until ?? null, working: o.working ?? null, label: o.label ?? null, list: !!o.list,
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__signInAt !== undefined, null, { timeout: 60_000, polling: 'raf' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60_000 });
    const out = await page.evaluate(() => ({
      form_ms: window.__formAt,
      sign_in_ms: window.__signInAt,
      bytes: window.__atSignIn.bytes,
      files: window.__atSignIn.files,
      fcp_ms: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    }));
    if (o.user) {
      await page.locator('#boot-name').fill(o.user[0]);
      await page.locator('#boot-secret').fill(o.user[1]);
      if (o.later) {
        const wait = out.sign_in_ms + o.later - await page.evaluate(() => performance.now());
        if (wait > 0) await page.waitForTimeout(wait);
      }
      const pressed = await page.evaluate(() => { window.__pressedAt = performance.now(); return window.__pressedAt; });
      await page.locator('#boot-secret').press('Enter');
      if (o.until) {
        await page.getByRole('heading', { name: o.until, level: 1 }).waitFor({ timeout: 60_000 });
        await page.waitForFunction(() => typeof window.__headingAt === 'number', null, { timeout: 60_000, polling: 'raf' });
      }
      if (o.working) await page.waitForFunction(() => typeof window.__workingAt === 'number', null, { timeout: 60_000, polling: 'raf' });
      if (o.list) await page.waitForFunction(() => typeof window.__listAt === 'number', null, { timeout: 60_000, polling: 'raf' });
      const after = await page.evaluate((t0) => {
        // The page's moment: its members (the household), else the list working.
        const shown = window.__headingAt ?? window.__listAt;
        const done = Math.max(shown, window.__workingAt ?? 0);
        const all = window.__bytesUntil(shown);
        const before = window.__bytesUntil(t0);
        const resources = performance.getEntriesByType('resource');
        const wasm = resources
          .filter((e) => e.responseEnd > t0 && e.name.endsWith('.wasm'))
          .reduce((sum, e) => sum + e.transferSize, 0);
        // Every request from start to the page working, in page time: what ran in parallel,
        // what waited.
        const waterfall = resources.filter((e) => e.startTime <= done).map((e) => ({
          name: new URL(e.name).pathname.split('/').slice(-2).join('/'),
          start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.transferSize,
        }));
        // From opening the link (navigation start is page time 0) and from pressing Sign in.
        return {
          open_ms: shown, page_ms: shown - t0, page_bytes: all.bytes - before.bytes,
          working_ms: window.__workingAt, working_page_ms: window.__workingAt - t0,
          list_ms: window.__listAt, list_page_ms: window.__listAt - t0,
          page_wasm_bytes: wasm, pressed_ms: t0, shown_ms: shown, done_ms: done, waterfall,
        };
      }, pressed);
      Object.assign(out, after);
    }
    if (o.check) {
      const form = page.locator('form').first();
      await form.locator('input:not([type=password]):not([type=checkbox]):not([type=submit]):not([type=hidden])').first().fill(o.check[0]);
      await form.locator('input[type=password]').first().fill(o.check[1]);
      await form.locator('input[type=password]').first().press('Enter');
      await page.getByText(`Signed in as ${o.check[0]}`).waitFor({ timeout: 60_000 });
      out.signed_in = true;
    }
    return out;
  } finally {
    await browser.close();
  }
}

/** The console's scenarios at `base` (its folder's URL), each a fresh load: `console` opens an
 * owner's bookmark to /household and signs in the moment "Sign in" works; `console_el` opens
 * it in a Greek browser (el-GR) and stops once its "Σύνδεση" works (a language other than
 * English must not make "Sign in" later, issue 24); `console_later` presses 2 s after "Sign
 * in" works, as a person typing does; `curator` opens a curator's bookmark to the articles
 * list and signs in at once, until its rows and search work (issue 37). */
function scenarios(base, prefix) {
  const household = new URL('household', base).href;
  const owner = ['olivia', 'olivia-demo'];
  const members = { user: owner, until: 'The Parkers', working: 'Edit household' };
  return [
    [`${prefix}console`, household, members],
    [`${prefix}console_el`, household, { locale: 'el-GR', label: 'Σύνδεση' }],
    [`${prefix}console_later`, household, { ...members, later: 2000 }],
    [`${prefix}curator`, new URL('records/articles', base).href, { user: ['curator', 'curator-demo'], list: true }],
  ];
}

/** Fresh loads of the floor page, the console's scenarios (`scenarios`), those of an earlier
 * build at `beforeUrl` when given (`before_` before each name: measured in the same run, on its
 * own server) and any peers, alternating so drift on a shared machine hits all alike. Peers
 * named in `checked` also sign in, in the first run (after the figures are taken). */
async function start(consoleUrl, floorUrl, runs, throttled, peers, checked, beforeUrl) {
  const apps = [['floor', floorUrl, {}], ...scenarios(consoleUrl, '')];
  if (beforeUrl) apps.push(...scenarios(beforeUrl, 'before_'));
  apps.push(...peers.map(([name, url]) => [name, url, {}]));
  const out = { violations: [] };
  for (const [name] of apps) out[name] = [];
  for (let i = 0; i < runs; i++) {
    for (const [name, url, o] of apps) {
      const check = i === 0 && checked.includes(name) ? ['olivia', 'olivia-demo'] : null;
      out[name].push(await startOnce(url, out.violations, throttled, { ...o, check }));
    }
  }
  return out;
}

/** Time from the list's data arriving (its response's last byte) to its rows on screen, and
 * frame times while scrolling the table from top to bottom. */
async function list(consoleUrl, path, rows, runs, user, password) {
  const out = { render_ms: [], frame_ms: [], rendered_rows: [], violations: [] };
  const browser = await freshBrowser();
  try {
    const page = browser.context.pages()[0] ?? await browser.context.newPage();
    watchViolations(page, out.violations);
    await page.goto(new URL('sign-in', consoleUrl).href);
    await page.getByLabel('Username').fill(user);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${user}`).waitFor();
    for (let run = 0; run < runs; run++) {
      // Leave the list, then come back to it without a reload (a reload signs out).
      await page.evaluate((p) => { history.pushState({}, '', new URL(p, document.baseURI).href); dispatchEvent(new PopStateEvent('popstate')); }, 'household');
      await page.waitForFunction(() => !document.querySelector('table tbody tr'));
      // The first frame after rows appear, in page time; the API answers' ends come from
      // resource timing afterwards.
      await page.evaluate(() => {
        performance.clearResourceTimings();
        performance.setResourceTimingBufferSize(5000);
        window.__navAt = performance.now();
        window.__rowsAt = undefined;
        const mo = new MutationObserver(() => {
          if (window.__rowsAt === undefined && document.querySelector('table tbody tr:not(.spacer) a')) {
            window.__rowsAt = null;
            requestAnimationFrame(() => { window.__rowsAt = performance.now(); });
            mo.disconnect();
          }
        });
        mo.observe(document.body, { childList: true, subtree: true });
      });
      const listPath = `${path}${path.includes('?') ? '&' : '?'}run=${run}`;
      await page.evaluate((p) => { history.pushState({}, '', new URL(p, document.baseURI).href); dispatchEvent(new PopStateEvent('popstate')); }, listPath);
      await page.waitForFunction(() => typeof window.__rowsAt === 'number', null, { timeout: 60_000 });
      const r = await page.evaluate(() => {
        // The last API answer that arrived before the rows (the search's, on a search page).
        const answers = performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'fetch'
          && /\/api\/v1\//.test(e.name) && e.startTime >= window.__navAt && e.responseEnd <= window.__rowsAt);
        return {
          data: Math.max(...answers.map((e) => e.responseEnd)), rows: window.__rowsAt, answers: answers.length,
          n: document.querySelectorAll('table tbody tr:not(.spacer)').length,
        };
      });
      if (!Number.isFinite(r.data)) throw new Error('no API answer was seen before the rows');
      out.render_ms.push(r.rows - r.data);
      out.rendered_rows.push(r.n);
    }
    // Scroll the table's region top to bottom in steps of 120 px, one step a frame (10,000 rows
    // are about 440,000 px: some 3,700 steps; the cap only bounds the loop).
    const frames = await page.evaluate(async () => {
      const region = document.querySelector('[role=region] table')?.closest('[role=region]') ?? document.scrollingElement;
      region.scrollTop = 0;
      const times = [];
      let last = await new Promise(requestAnimationFrame);
      while (region.scrollTop + region.clientHeight < region.scrollHeight - 1 && times.length < 5000) {
        region.scrollTop += 120;
        const now = await new Promise(requestAnimationFrame);
        times.push(now - last);
        last = now;
      }
      return times;
    });
    out.frame_ms = frames;
    out.rows = rows;
  } finally {
    await browser.close();
  }
  return out;
}

/** An artifact downloaded through the console's button, beside a plain fetch-to-Blob of the same
 * URL in the same page: time, throughput, and the wasm memory before and after (wasm memory
 * never shrinks, so "after" is its high-water mark). */
async function download(consoleUrl, recordPath, title, artifactId, runs, user, password) {
  const token = process.env.LARDER_BENCH_TOKEN;
  const out = { console_ms: [], plain_ms: [], bytes: 0, wasm_before: [], wasm_after: [], violations: [] };
  const browser = await freshBrowser();
  try {
    const page = await signedInPage(browser, consoleUrl, user, password, out.violations);
    await goInApp(page, recordPath);
    const button = page.getByRole('button', { name: `Download ${title}` });
    await button.waitFor({ timeout: 30_000 });
    const url = `/api/v1/artifacts/${artifactId}/download`;
    for (let run = 0; run < runs; run++) {
      out.wasm_before.push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
      const started = Date.now();
      const [saved] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), button.click()]);
      out.console_ms.push(Date.now() - started);
      out.wasm_after.push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
      await saved.delete();
      await page.getByText(/^Saved as /).waitFor();
      // The same file the plain way, in the same page: fetch, then Blob.
      const plain = await page.evaluate(async ({ path, token }) => {
        const at = performance.now();
        const answer = await fetch(new URL(path, location.origin).href, { headers: { Authorization: `Bearer ${token}` } });
        const blob = await answer.blob();
        return { ms: performance.now() - at, bytes: blob.size };
      }, { path: url, token });
      out.plain_ms.push(plain.ms);
      out.bytes = plain.bytes;
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** A search's every match exported through the console's Export (JSON, then CSV), beside the
 * browser's own way in the same page and run: the same pages fetched (200 rows, three at a
 * time), `JSON.stringify` of all rows, a Blob. Wasm memory before and after each export (it
 * never shrinks, so "after" is its high-water mark). */
async function exportList(consoleUrl, listPath, rows, runs, user, password) {
  const out = { json_ms: [], csv_ms: [], plain_ms: [], wasm_before: [], wasm_after_json: [], wasm_after_csv: [], json_bytes: 0, csv_bytes: 0, plain_bytes: 0, rows: [], violations: [] };
  const browser = await freshBrowser();
  try {
    const page = await signedInPage(browser, consoleUrl, user, password, out.violations);
    await goInApp(page, listPath);
    await page.locator('p.total').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const panel = page.getByRole('group', { name: 'Export' });
    const token = await page.evaluate(async ({ user, password }) => {
      const answer = await fetch(new URL('/api/v1/system/login', location.origin).href, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: user, password }),
      });
      const result = (await answer.json()).result;
      return result.token ?? result.access_token;
    }, { user, password });
    const search = new URL(listPath, 'http://x/').searchParams;
    const collection = new URL(listPath, 'http://x/').pathname.split('/').filter(Boolean).pop();
    for (let run = 0; run < runs; run++) {
      const before = await page.evaluate(() => window.__wasmMemory.buffer.byteLength);
      out.wasm_before.push(before);
      for (const format of ['JSON', 'CSV']) {
        const started = Date.now();
        const [saved] = await Promise.all([
          page.waitForEvent('download', { timeout: 600_000 }),
          panel.getByRole('button', { name: `Download ${format}` }).click(),
        ]);
        const ms = Date.now() - started;
        const text = readFileSync(await saved.path(), 'utf8');
        await saved.delete();
        if (format === 'JSON') {
          out.json_ms.push(ms);
          out.json_bytes = Buffer.byteLength(text);
          out.rows.push(JSON.parse(text).length);
          out.wasm_after_json.push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
        } else {
          out.csv_ms.push(ms);
          out.csv_bytes = Buffer.byteLength(text);
          out.wasm_after_csv.push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
        }
        await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      }
      const plain = await page.evaluate(async ({ token, collection, q, sort, rows }) => {
        const at = performance.now();
        const pages = [];
        for (let offset = 0; offset < rows; offset += 200) pages.push(offset);
        const all = [];
        const fetchPage = (offset) => fetch(new URL(`/api/v1/${collection}/search`, location.origin).href, {
          method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ q, sort: sort || undefined, limit: Math.min(200, rows - offset), offset }),
        }).then((r) => r.json());
        for (let i = 0; i < pages.length; i += 3) {
          const answers = await Promise.all(pages.slice(i, i + 3).map(fetchPage));
          for (const a of answers) all.push(...a.result.results);
        }
        const blob = new Blob([JSON.stringify(all)], { type: 'application/json' });
        return { ms: performance.now() - at, bytes: blob.size, rows: all.length };
      }, { token, collection, q: search.get('q') ?? '', sort: search.get('sort') ?? '', rows });
      out.plain_ms.push(plain.ms);
      out.plain_bytes = plain.bytes;
      if (plain.rows !== rows) throw new Error(`the plain way read ${plain.rows} rows, not ${rows}`);
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** "Download my data" of the signed-in owner's household (JSON, then the CSV zip; only JSON with
 * `jsonOnly`): time and wasm memory growth. `from` and `to` (`YYYY-MM-DD`) set the days of meal
 * plans read; `throttled` puts the page on Lighthouse's mobile line first. */
async function householdExport(consoleUrl, members, runs, user, password, from, to, throttled, jsonOnly) {
  const out = { json_ms: [], zip_ms: [], wasm_before: [], wasm_after_json: [], wasm_after_zip: [], json_bytes: 0, zip_bytes: 0, members: [], plans: [], violations: [] };
  const browser = await freshBrowser();
  try {
    const page = await signedInPage(browser, consoleUrl, user, password, out.violations);
    await goInApp(page, 'household');
    await page.getByRole('button', { name: 'Download my data (JSON)' }).waitFor({ timeout: 120_000 });
    if (from && to) {
      await page.getByLabel('From', { exact: true }).fill(from);
      await page.getByLabel('To', { exact: true }).fill(to);
    }
    if (throttled) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', MOBILE);
    }
    const formats = jsonOnly ? [['json', 'Download my data (JSON)']] : [['json', 'Download my data (JSON)'], ['zip', 'Download my data (CSV, zip)']];
    for (let run = 0; run < runs; run++) {
      out.wasm_before.push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
      for (const [format, button] of formats) {
        const started = Date.now();
        const [saved] = await Promise.all([
          page.waitForEvent('download', { timeout: 4 * 3600_000 }),
          page.getByRole('button', { name: button }).first().click(),
        ]);
        out[`${format}_ms`].push(Date.now() - started);
        const bytes = readFileSync(await saved.path());
        await saved.delete();
        out[`${format}_bytes`] = bytes.length;
        if (format === 'json') {
          const file = JSON.parse(bytes.toString('utf8'));
          out.members.push(file.members.length);
          out.plans.push(file.members.reduce((n, m) => n + (m.meal_plans?.length ?? 0), 0));
        }
        out[`wasm_after_${format}`].push(await page.evaluate(() => window.__wasmMemory.buffer.byteLength));
      }
    }
    if (out.members.some((n) => n !== members)) throw new Error(`exported ${out.members} members, not ${members}`);
  } finally {
    await browser.close();
  }
  return out;
}

/** Issue 42's round trip on the phone line: with the provider's session alive, a bookmark
 * opened in a fresh tab comes back signed in through the silent sign-in (`prompt=none`, there
 * and back); beside it, in the same run, a password sign-in on the console without a provider
 * and on the one with it (whose load first asks the provider, which finds no session). Each from
 * navigation to "Signed in as" painted, typing taking no time; a fresh browser per run. Also a
 * new tab opened beside one signed in by password (no provider), whose session comes over the
 * tabs' channel. */
async function silent(oidcUrl, plainUrl, providerHost, runs, user, password) {
  const out = { silent: [], handed: [], password_plain: [], password_oidc: [], violations: [] };
  const throttle = async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', MOBILE);
  };
  const signedIn = (page, who) => page.getByText(`Signed in as ${who}`).waitFor({ timeout: 60_000 });
  const byPassword = async (url) => {
    const browser = await freshBrowser();
    try {
      const page = await browser.context.newPage();
      watchViolations(page, out.violations);
      await throttle(page);
      const t0 = Date.now();
      await page.goto(new URL('sign-in', url).href);
      const button = page.getByRole('button', { name: 'Sign in', exact: true });
      await button.waitFor();
      await page.waitForFunction(() => {
        const b = [...document.querySelectorAll('button')].find((e) => e.textContent.trim() === 'Sign in');
        return b && !b.disabled;
      }, null, { timeout: 60_000 });
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await button.click();
      await signedIn(page, user);
      return Date.now() - t0;
    } finally {
      await browser.close();
    }
  };
  // A new tab opened beside a tab signed in by password (unthrottled), on the console without
  // a provider: its session comes over the tabs' channel.
  const handed = async (url) => {
    const browser = await freshBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(new URL('sign-in', url).href);
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await signedIn(page, user);
      const beside = await browser.context.newPage();
      watchViolations(beside, out.violations);
      await throttle(beside);
      const t0 = Date.now();
      await beside.goto(new URL('overview', url).href);
      await signedIn(beside, user);
      return Date.now() - t0;
    } finally {
      await browser.close();
    }
  };
  for (let i = 0; i < runs; i++) {
    const browser = await freshBrowser();
    try {
      const page = await browser.context.newPage();
      watchViolations(page, out.violations);
      // Signed in at the provider once, unthrottled: its session is what the round trip finds.
      await page.goto(oidcUrl);
      await page.getByRole('button', { name: `Sign in with ${providerHost}` }).click();
      // The provider's own form (the console's has the same labels).
      await page.waitForURL((url) => url.host === providerHost && url.pathname.startsWith('/interaction/'), { timeout: 60_000 });
      await page.getByLabel('Username').fill('olivia');
      await page.getByLabel('Password').fill('olivia-demo');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await signedIn(page, 'olivia');
      // No console tab left: only the provider's session brings the next one back.
      await page.close();
      const tab = await browser.context.newPage();
      watchViolations(tab, out.violations);
      await throttle(tab);
      const t0 = Date.now();
      await tab.goto(new URL('overview', oidcUrl).href);
      await signedIn(tab, 'olivia');
      out.silent.push(Date.now() - t0);
    } finally {
      await browser.close();
    }
    out.password_plain.push(await byPassword(plainUrl));
    out.handed.push(await handed(plainUrl));
    out.password_oidc.push(await byPassword(oidcUrl));
  }
  return out;
}

function parse(file, runs) {
  const text = readFileSync(file, 'utf8');
  const ms = [];
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const value = JSON.parse(text);
    const t1 = process.hrtime.bigint();
    records = (Array.isArray(value) ? value : value.result).length;
    ms.push(Number(t1 - t0) / 1e6);
  }
  return { parse_ms: ms, records, bytes: Buffer.byteLength(text) };
}

const [mode, ...rest] = process.argv.slice(2);
let result;
if (mode === 'start') {
  const extra = rest.slice(4);
  const flag = (name) => extra.filter((p) => p.startsWith(`--${name}=`)).map((p) => p.slice(name.length + 3));
  const peers = extra.filter((p) => !p.startsWith('--'))
    .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]);
  result = await start(rest[0], rest[1], Number(rest[2]), rest[3] === 'throttled', peers, flag('check'), flag('before')[0]);
}
else if (mode === 'list') result = await list(rest[0], rest[1], Number(rest[2]), Number(rest[3]), rest[4], rest[5]);
else if (mode === 'parse') result = parse(rest[0], Number(rest[1]));
else if (mode === 'download') result = await download(rest[0], rest[1], rest[2], rest[3], Number(rest[4]), rest[5], rest[6]);
else if (mode === 'export') result = await exportList(rest[0], rest[1], Number(rest[2]), Number(rest[3]), rest[4], rest[5]);
else if (mode === 'household-export') {
  const flags = rest.slice(7);
  result = await householdExport(rest[0], Number(rest[1]), Number(rest[2]), rest[3], rest[4], rest[5], rest[6], flags.includes('throttled'), flags.includes('json'));
}
else if (mode === 'silent') result = await silent(rest[0], rest[1], rest[2], Number(rest[3]), rest[4], rest[5]);
else throw new Error(`unknown mode ${mode}`);
process.stdout.write(JSON.stringify(result));
