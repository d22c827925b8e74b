import AxeBuilder from '@axe-core/playwright';
import { expect, test, Browser, CDPSession, Page, APIRequestContext } from '@playwright/test';

// The console may be hosted under a sub-path (`LARDER_E2E_PREFIX=/console/ cargo xtask test`;
// BASE_URL then ends with it): pages are relative to BASE_URL (`page.goto('sign-in')`, never
// '/sign-in', which would leave the sub-path), and the API is at /api/v1 on the origin.

/** The absolute URL of an API path (`api('households/me')`), on BASE_URL's origin. */
export function api(path: string) {
  return new URL(`/api/v1/${path.replace(/^\/+/, '')}`, process.env.BASE_URL).href;
}

/** Which wire the server answers with: `cargo xtask test` runs journeys against larder-server's
 * `reference` and `production` wires, and the household and session journeys against `realprod`,
 * production's own households service (`cargo xtask realprod`). */
export const WIRE = process.env.LARDER_WIRE ?? 'reference';
/** Production's own households service, behind its same-origin proxy (no /__faults, no data
 * service, other people). */
export const realprod = WIRE === 'realprod';
/** Whether the server answers as production does (larder-server imitating it, or production). */
export const production = WIRE === 'production' || realprod;

/** The people of realprod's identity stand-in who play the demo's: noah (no household) is alice,
 * olivia (who owns "The Parkers", given to bob before the journeys) is bob. */
const REALPROD_PEOPLE: Record<string, { username: string; password: string }> = {
  noah: { username: 'alice', password: 'alice-pw-1' },
  olivia: { username: 'bob', password: 'bob-pw-1' },
  admin: { username: 'admin', password: 'admin-pw-1' },
  curator: { username: 'expert', password: 'expert-pw-1' },
};

/** The account that plays demo person `username` on this wire (the same one but on realprod). */
export function person(username: string, password = `${username}-demo`) {
  return (realprod ? REALPROD_PEOPLE[username] : undefined) ?? { username, password };
}

/** The user name shown for demo person `username` on this wire. */
export const userName = (username: string) => person(username).username;

/** Signs in through the page, as a person (a demo person: mapped on realprod, see `person`). */
export async function signIn(page: Page, demoUsername: string, demoPassword: string) {
  await page.goto('sign-in');
  await typeCredentials(page, demoUsername, demoPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${userName(demoUsername)}`)).toBeVisible();
}

/** Types demo person `who`'s credentials (mapped on realprod, see `person`) into the English
 * sign-in form, without pressing. */
export async function typeCredentials(page: Page, who: string, demoPassword?: string) {
  const { username, password } = person(who, demoPassword);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
}

/** Moves inside the single-page app without reloading it (a reload would sign out). */
export async function goInApp(page: Page, path: string) {
  // The router handles clicks on same-origin links, as it does for a person clicking one.
  await page.evaluate((p) => {
    const link = document.createElement('a');
    // Relative to the document's base (the sub-path the console is hosted under).
    link.href = new URL(p.replace(/^\/+/, ''), document.baseURI).href;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }, path);
}

/** Saves the page at desktop and phone widths into target/playwright/screens (a folder of
 * their own for the other wires, which run at the same time). */
export async function screenshots(page: Page, name: string) {
  const folder = WIRE === 'reference' ? 'target/playwright/screens' : `target/playwright/screens/${WIRE}`;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Let the relayout after the resize settle, or a full-page capture can catch it half-painted.
    await page.waitForTimeout(250);
    await page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Holds back every request to `url` until the function it returns is called: what the page
 * shows while a file or an answer is still on its way. */
export async function holdBack(page: Page, url: string | RegExp) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route(url, async (route) => { await held; await route.continue(); });
  return release;
}

/** Serves every page (a document the browser navigates to) edited by `edit`, its headers kept:
 * what a build or a host that differs from this one would send. */
export async function editPages(page: Page, edit: (html: string) => string) {
  await page.route((url) => !/\.[a-z0-9]+$/i.test(url.pathname) || url.pathname.endsWith('.html'), async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const answer = await route.fetch();
    await route.fulfill({ response: answer, body: edit(await answer.text()) });
  });
}

/** The start-up files a built page carries inside itself (xtask/src/start_page.rs), fetched only
 * when its own start did not run. */
export const START_FILES = /\/(start_bg\.wasm|start\.js|start\.css|start\.json)(\?|$)/;

/** A bearer token straight from the service, for arranging state behind the page's back (on
 * realprod it lives `LARDER_REALPROD_TTL` seconds: take a new one rather than keeping it). */
export async function apiToken(request: APIRequestContext, demoUsername = 'curator', demoPassword = 'curator-demo') {
  const { username, password } = person(demoUsername, demoPassword);
  const answer = await request.post(api('system/login'), { data: { username, password } });
  expect(answer.status()).toBe(200);
  const result = (await answer.json()).result;
  return (result.token ?? result.access_token ?? result.jwt) as string;
}

/** The fault-injection control of larder-server (`--fault-injection`), on BASE_URL's origin. */
export const faultControl = () => new URL('/__faults', process.env.BASE_URL).href;

/** Arms `faults` for `method path`: each matching request takes the next one (see faults.rs). */
export async function armFault(request: APIRequestContext, method: string, path: string, faults: object[]) {
  const answer = await request.post(faultControl(), { data: { method, path, faults } });
  expect(answer.status(), 'larder-server runs with --fault-injection').toBe(204);
}

/** Opens (`false`) or closes (`true`) larder-server for maintenance (`--fault-injection`). */
export async function setMaintenance(request: APIRequestContext, on: boolean) {
  const answer = await request.post(new URL('/__faults/maintenance', process.env.BASE_URL).href, { data: { on } });
  expect(answer.status(), 'larder-server runs with --fault-injection').toBe(204);
}

/** Spends (or restores) every guest's daily budget on larder-server (`--fault-injection`). */
export async function spendGuestBudget(request: APIRequestContext, spent: boolean) {
  const answer = await request.post(new URL('/__faults/guest-budget', process.env.BASE_URL).href, { data: { spent } });
  expect(answer.status(), 'larder-server runs with --fault-injection').toBe(204);
}

/** A slug no earlier run has used. */
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** What a create of each collection needs beside the caller's fields (production's required
 * fields, and the state that avoids the guide workflow's 409). */
const CREATE_DEFAULTS: Record<string, object> = {
  articles: { venue: 'Journey Journal', content: '', authors: ['A. Author'] },
  guides: { description: 'A journey guide.', url: 'https://example.org/journey', license: 'CC-BY-4.0', content: 'Journey content.', status: 'draft' },
  textbooks: {},
  fctables: { database_name: 'Journey DB', compiling_institution: 'Journey Institute' },
  guidelines: { status: 'active', review_status: 'verified' },
  artifacts: { file_url: 'https://example.org/file.txt', file_type: 'txt', file_size: 1 },
};

/** Creates a record through the API as production accepts it; its stored form. */
export async function createRecord(request: APIRequestContext, token: string, collection: string, fields: object) {
  const data = { ...(CREATE_DEFAULTS[collection] ?? {}), ...fields };
  const answer = await request.post(api(collection), { headers: { Authorization: `Bearer ${token}` }, data });
  expect(answer.ok(), `${collection}: ${await answer.text()}`).toBeTruthy();
  return (await answer.json()).result;
}

/** Uploads a file to `parent` through the API; the artifact. */
export async function uploadFile(request: APIRequestContext, token: string, parent: string, name: string, bytes: Buffer, title?: string) {
  const multipart: Record<string, unknown> = { parent_urn: parent, file: { name, mimeType: 'application/octet-stream', buffer: bytes } };
  if (title) multipart.title = title;
  const answer = await request.post(api('artifacts/upload'), { headers: { Authorization: `Bearer ${token}` }, multipart: multipart as never });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()).result;
}

/** Signs in as the curator (or another account) for the knowledge-base journeys. */
export async function signInCurator(page: Page, username = 'curator', password = 'curator-demo') {
  await signIn(page, username, password);
}

/** Gives `username` (who owns none) a household through the API, with `members` named
 * `Member 1`… (adults); members past the 100 a create takes are added one by one. Returns its id. */
export async function householdFor(request: APIRequestContext, username: string, password: string,
  fields: { name: string; region?: string; members?: number }) {
  const token = await apiToken(request, username, password);
  const headers = { Authorization: `Bearer ${token}` };
  const total = fields.members ?? 0;
  const named = (n: number) => ({ name: `Member ${String(n).padStart(3, '0')}`, age_group: 'adult' });
  const first = Array.from({ length: Math.min(total, 100) }, (_, i) => named(i + 1));
  const created = await request.post(api('households'), {
    headers, data: { name: fields.name, ...(fields.region ? { region: fields.region } : {}), members: first },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const id = (await created.json()).result.id as string;
  for (let n = 101; n <= total; n++) {
    const added = await request.post(api('members'), { headers, data: { household_id: id, ...named(n) } });
    expect(added.ok(), await added.text()).toBeTruthy();
  }
  return id;
}

/** Deletes `username`'s household, if there is one (a journey's clean-up). */
export async function removeHousehold(request: APIRequestContext, username: string, password: string) {
  const headers = { Authorization: `Bearer ${await apiToken(request, username, password)}` };
  const own = await request.get(api('households/me'), { headers });
  if (own.status() === 404) return;
  await request.delete(api(`households/${(await own.json()).result.id}`), { headers });
}

/** A bulk replace's body: a one-chapter structure tree and three passages on two pages. */
export const TEXTBOOK_REPLACEMENT = {
  extractor_name: 'journey',
  structure_tree: { roots: [{ id: 'c1', title: 'Journey chapter', kind: 'chapter', page_start: 1, page_end: 2, children: [] }] },
  passages: [
    { page_no: 1, text: 'Replaced passage one of page one.', char_start: 0, char_end: 33 },
    { page_no: 1, text: 'Replaced passage two of page one.', char_start: 34, char_end: 67 },
    { page_no: 2, text: 'Replaced passage of page two.', char_start: 0, char_end: 28 },
  ],
};

/** A bundle's file name without `.wasm` (`parts_<split>`, xtask/src/split/bundle.rs), as a
 * pattern. */
export const BUNDLE = 'parts_[a-z_]+';

/** Lighthouse's mobile throttling, as the bench's start measurement (xtask/src/bench/browser.mjs). */
const MOBILE = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

/** The console's modules: its main module and glue (fetched by the start-up module once the form
 * works), the chunks they share, the pages' modules, and the bundles that hold the main module
 * and a landing's parts (`parts_<split>.wasm`, xtask/src/split/bundle.rs). */
const SPLIT_MODULE = new RegExp(`/((chunk_\\d+|split_[a-z_]+|${BUNDLE}|larder_bg)\\.wasm|larder\\.js)(\\?|$)`);

/** The console's main module `name` (`larder_bg`) or a split module's (`split_console`), as a
 * route pattern: its own file and every bundle, which holds the main module and the parts of a
 * landing. A module made not to arrive must come neither way. */
export const moduleFiles = (name: string) => new RegExp(`/(${name}|${BUNDLE})\\.wasm$`);

/** Every bundle's file, as a route pattern. */
export const bundleFiles = new RegExp(`/${BUNDLE}\\.wasm$`);

/** One cold load of the sign-in page in a fresh context under mobile throttling: when "Sign in"
 * was first enabled and when each split module was requested, both in ms since navigation
 * (issue 26: a start that waits for a chunk starts 500 ms later). */
export async function coldStart(browser: Browser) {
  const context = await browser.newContext();
  // Where the load is, for the message of one that stalls (each step below is bounded, so a
  // stall names itself instead of running out the test's whole time).
  let step = 'opening the page';
  // For closing: the page and the session that throttles it.
  let opened: { page: Page; cdp: CDPSession } | undefined;
  try {
    const page = await context.newPage();
    // The journeys' guard watches its own page only: this one's errors are returned.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`uncaught: ${e}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /panicked|Content Security Policy|RuntimeError/.test(m.text())) errors.push(m.text());
    });
    const cdp = await context.newCDPSession(page);
    opened = { page, cdp };
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', MOBILE);
    // Wall-clock times (ms), turned into page time below through the page's time origin.
    const requested: { name: string; wall: number }[] = [];
    const pending = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      pending.set(e.requestId, new URL(e.request.url).pathname.split('/').pop()!);
      if (SPLIT_MODULE.test(e.request.url)) requested.push({ name: e.request.url.split('/').pop()!, wall: e.wallTime * 1000 });
    });
    for (const done of ['Network.loadingFinished', 'Network.loadingFailed'] as const) cdp.on(done, (e) => pending.delete(e.requestId));
    // The moment the button is enabled, as a person would meet it (the bench's own watch).
    await page.addInitScript(() => {
      const seen = () => {
        const w = window as unknown as { __signInAt?: number };
        if (w.__signInAt !== undefined) return;
        const ready = [...document.querySelectorAll('form button')]
          .some((b) => !(b as HTMLButtonElement).disabled && /^\s*sign in\s*$/i.test(b.textContent ?? ''));
        if (ready) w.__signInAt = performance.now();
      };
      new MutationObserver(seen).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    });
    // Only the button is waited for: the page's `load` event is not what a person meets, and
    // once the form works the console's files may hold it back on this line.
    const stalled = async () => {
      const shown = await page.evaluate(() => `${document.readyState}; button "${document.querySelector('form button')?.textContent ?? 'none'}"`).catch((e) => `${e}`);
      return `a cold load stalled ${step} (${shown}; still loading: ${[...pending.values()].join(' ') || 'nothing'})`;
    };
    try {
      await page.goto('sign-in', { waitUntil: 'commit', timeout: 60_000 });
      step = 'waiting for "Sign in" to work';
      await page.waitForFunction(() => (window as unknown as { __signInAt?: number }).__signInAt !== undefined, undefined, { polling: 50, timeout: 60_000 });
    } catch (e) {
      throw new Error(`${await stalled()}: ${e}`);
    }
    const { signInAt, origin } = await page.evaluate(() => ({
      signInAt: (window as unknown as { __signInAt: number }).__signInAt,
      origin: performance.timeOrigin,
    }));
    const modules = requested.map((r) => ({ name: r.name, at: r.wall - origin }));
    step = 'closing';
    return { signInAt, modules, errors, early: modules.filter((m) => m.at < signInAt) };
  } finally {
    // What the console fetched after "Sign in" may still be arriving on the throttled line: the
    // throttling is lifted and the page left first, so closing does not wait on it. A browser
    // that still takes over 30 s to close a context (CI once ran out the test's 240 s, and no
    // step of a load could be named) is reported beside the results: by then the load's
    // findings are in hand, or its own error is on its way.
    const close = async () => {
      if (opened) {
        await opened.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
        await opened.page.goto('about:blank');
      }
      await context.close();
    };
    await bounded(close(), 30_000, `closing a cold load's browser context (${step})`).catch((e) => {
      console.warn(`${e}`);
      test.info().annotations.push({ type: 'warning', description: `${e}` });
    });
  }
}

/** `work`, or an error naming `what` once `ms` have passed. */
async function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms); });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Fails with every violation of WCAG 2.2 A/AA that axe-core finds on the page as it is. */
/** Scans the page as it stands in the light and then the dark scheme. The CSS changes only
 * colours with `prefers-color-scheme` (no transitions), so one visit serves both: a second
 * sign-in and walk through the same pages would scan the same states again. Leaves the page in
 * the light scheme. */
export async function scanBothSchemes(page: Page, what: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await scan(page, `${what}, ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

export async function scan(page: Page, what: string) {
  // Legacy mode runs `axe.run` in the page itself; the default opens a new page per scan to
  // merge frames' partial results, which tripled each scan's time (1.2 s against 0.4 s) and the
  // console has no frames. Only violations are asked for (the passes are never read).
  // `options` must come before `withTags`: it replaces every option, `runOnly` included.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'])
    .analyze();
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(found, `axe-core on ${what}`).toEqual([]);
}

/** RFC 4180 read back: rows of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += c;
  }
  expect(field, 'every line ends in CRLF').toBe('');
  return rows;
}

/** Keeps every `WebAssembly.Memory` the page's modules export (the start-up module's, the
 * console's, which its split modules share), as they are instantiated, for `inMemory`: called
 * before the page is opened, it follows every document the tab loads. (DevTools'
 * `Runtime.queryObjects`, which would find them after the fact, crashes Chromium's renderer on
 * this page.) */
export async function watchMemories(page: Page) {
  await page.addInitScript(() => {
    const seen = new Set<WebAssembly.Memory>();
    (window as unknown as { __memories: Set<WebAssembly.Memory> }).__memories = seen;
    const note = (instance: WebAssembly.Instance) => {
      for (const value of Object.values(instance.exports)) if (value instanceof WebAssembly.Memory) seen.add(value);
      return instance;
    };
    type Instantiated = WebAssembly.Instance | WebAssembly.WebAssemblyInstantiatedSource;
    const instanceOf = (result: Instantiated) => (result instanceof WebAssembly.Instance ? result : result.instance);
    const instantiate = WebAssembly.instantiate as (...args: unknown[]) => Promise<Instantiated>;
    (WebAssembly as { instantiate: unknown }).instantiate = async (...args: unknown[]) => {
      const result = await instantiate(...args);
      note(instanceOf(result));
      return result;
    };
    const streaming = WebAssembly.instantiateStreaming as (...args: unknown[]) => Promise<Instantiated>;
    (WebAssembly as { instantiateStreaming: unknown }).instantiateStreaming = async (...args: unknown[]) => {
      const result = await streaming(...args);
      note(instanceOf(result));
      return result;
    };
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
      construct: (target, args) => note(Reflect.construct(target, args) as WebAssembly.Instance),
    });
  });
}

/** Where `text` still is in the page: in any of its `WebAssembly.Memory`s (`watchMemories`;
 * its UTF-8 bytes searched inside the page, handed over as numbers so the page never holds the
 * text itself), and in its JavaScript heap (a heap snapshot after a garbage collection,
 * searched here). Issue 37: what belonged to one person must be gone once another signs in. */
export async function inMemory(page: Page, text: string) {
  const needle = [...Buffer.from(text, 'utf8')];
  const { memories, found } = await page.evaluate((needle) => {
    let found = 0;
    const all = [...(window as unknown as { __memories: Set<WebAssembly.Memory> }).__memories];
    for (const memory of all) {
      const bytes = new Uint8Array(memory.buffer);
      outer: for (let i = bytes.indexOf(needle[0]); i !== -1; i = bytes.indexOf(needle[0], i + 1)) {
        for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
        found++;
        break;
      }
    }
    return { memories: all.length, found };
  }, needle);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    let snapshot = '';
    const chunk = (e: { chunk: string }) => { snapshot += e.chunk; };
    cdp.on('HeapProfiler.addHeapSnapshotChunk', chunk);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', chunk);
    return { memories, wasm: found > 0, heap: snapshot.includes(text) };
  } finally {
    await cdp.detach();
  }
}
