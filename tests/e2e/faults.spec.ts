import { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, armFault, createRecord, faultControl, signInCurator as signIn, unique, goInApp as visit } from './helpers';

// The console against a misbehaving service: larder-server runs with --fault-injection, and
// `/__faults` arms a fault on one route and counts what reached it. For each fault the console
// shows what happened, keeps working, and (by the fixtures' guard) never panics.


/** How many requests reached `method path` while a rule watched it. */
async function hits(request: APIRequestContext, method: string, path: string) {
  const report = await (await request.get(faultControl())).json();
  return report.hits.filter((h: { method: string; path: string }) => h.method === method && h.path === path).length;
}

/** An article made through the API, so each journey owns the route its fault is armed on. */
async function article(request: APIRequestContext) {
  const token = await apiToken(request, 'curator', 'curator-demo');
  const slug = unique('fault');
  await createRecord(request, token, 'articles', { urn: slug, title: `Fault ${slug}`, content: 'Target of an injected fault.' });
  return { urn: `urn:article:${slug}`, title: `Fault ${slug}`, token };
}

async function openRecord(page: Page, urn: string) {
  await visit(page, `/records/articles/${encodeURIComponent(urn)}`);
}

test.afterEach(async ({ request }) => {
  await request.delete(faultControl());
});

test('a burst of 503s: the console says it is retrying, then shows the record', async ({ page, request }) => {
  const { urn, title } = await article(request);
  const path = `/api/v1/articles/${urn}`;
  await signIn(page);
  await armFault(request, 'GET', path, [{ kind: 'status', status: 503 }, { kind: 'status', status: 503 }]);
  await openRecord(page, urn);
  await expect(page.getByRole('status').filter({ hasText: /Retrying \d of 3/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText(/Retrying/)).toHaveCount(0);
  expect(await hits(request, 'GET', path)).toBe(3);
});

test('429 with Retry-After: the list waits and then appears', async ({ page, request }) => {
  await signIn(page);
  await armFault(request, 'GET', '/api/v1/articles', [{ kind: 'status', status: 429, retry_after: '1' }]);
  await visit(page, '/records/articles');
  await expect(page.locator('table.records tbody tr').first()).toBeVisible({ timeout: 10_000 });
  expect(await hits(request, 'GET', '/api/v1/articles')).toBe(2);
});

test('a gateway HTML page four times: the error names the status and the page text', async ({ page, request }) => {
  await signIn(page);
  await armFault(request, 'GET', '/api/v1/articles', Array(4).fill({ kind: 'html' }));
  await visit(page, '/records/articles');
  const alert = page.getByRole('alert').filter({ hasText: 'Bad Gateway' });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  // The page's words are shown; its markup is neither rendered nor shown.
  await expect(alert).toContainText('The upstream server did not answer.');
  await expect(alert).not.toContainText('<h1>');
  expect(await hits(request, 'GET', '/api/v1/articles')).toBe(4);
  // The console keeps working: "Try again" lists the records.
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('table.records tbody tr').first()).toBeVisible();
});

test('an answer later than the timeout: the console says so and recovers', async ({ page, request }) => {
  // config.json sets the timeout, as an operator would; 2 s keeps the journey short.
  await page.route('**/config.json', (route) => route.fulfill({ json: { timeout_seconds: 2 } }));
  const { urn, title } = await article(request);
  const path = `/api/v1/articles/${urn}`;
  await signIn(page);
  await armFault(request, 'GET', path, [{ kind: 'delay', delay_ms: 5000 }]);
  await openRecord(page, urn);
  await expect(page.getByRole('alert')).toContainText('No answer within 2 s');
  await page.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
});

test('a dropped connection: a network error, not retried by the console', async ({ page, request }) => {
  const { urn } = await article(request);
  const path = `/api/v1/articles/${urn}`;
  await signIn(page);
  // Chromium repeats a request by itself when a reused keep-alive connection closes unanswered
  // (once per idle connection), so enough drops are armed to outlast it.
  await armFault(request, 'GET', path, Array(10).fill({ kind: 'drop' }));
  // Watches for a "Retrying" notice at any moment, not only at the end.
  await page.evaluate(() => {
    new MutationObserver(() => {
      if (/Retrying/.test(document.body.innerText)) (window as unknown as { sawRetry: boolean }).sawRetry = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await openRecord(page, urn);
  await expect(page.getByRole('alert')).toContainText('could not be reached');
  expect(await page.evaluate(() => (window as unknown as { sawRetry?: boolean }).sawRetry ?? false)).toBe(false);
  expect(await hits(request, 'GET', path)).toBeGreaterThanOrEqual(1);
});

test('truncated JSON and success:false in a 200 are errors with the service detail', async ({ page, request }) => {
  const { urn } = await article(request);
  const path = `/api/v1/articles/${urn}`;
  await signIn(page);
  await armFault(request, 'GET', path, [{ kind: 'truncated' }]);
  await openRecord(page, urn);
  await expect(page.getByRole('alert')).toContainText('Unexpected answer');
  await armFault(request, 'GET', path, [{ kind: 'success_false' }]);
  await page.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('alert')).toContainText('Injected fault');
  expect(await hits(request, 'GET', path)).toBe(2);
  // A record that is not there is no failure to retry: no "Try again".
  await openRecord(page, `${urn}-missing`);
  await expect(page.getByRole('alert')).toContainText('not found');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

test('a save answered 502 is sent once and keeps the form; saving again works', async ({ page, request }) => {
  const { urn, title, token } = await article(request);
  const path = `/api/v1/articles/${urn}`;
  await signIn(page);
  await openRecord(page, urn);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Title', { exact: true }).fill(`${title} saved twice`);
  await armFault(request, 'PATCH', path, [{ kind: 'status', status: 502 }]);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Bad ?Gateway/ })).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`${title} saved twice`);
  expect(await hits(request, 'PATCH', path)).toBe(1);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `${title} saved twice`, level: 1 })).toBeVisible();
  const stored = await request.get(api(`articles/${urn}`), { headers: { Authorization: `Bearer ${token}` } });
  expect((await stored.json()).result.title).toBe(`${title} saved twice`);
});

test('a create answered 503 is sent once, creates nothing and keeps the form', async ({ page, request }) => {
  const slug = unique('created-once');
  await signIn(page);
  await visit(page, '/records/articles/new');
  await page.getByLabel('URN slug').fill(slug);
  await page.getByLabel('Title', { exact: true }).fill(`Created once ${slug}`);
  await page.getByLabel('Venue', { exact: true }).fill('Fault Journal');
  await page.getByLabel('Authors', { exact: true }).fill('F. Ault');
  await page.getByLabel('Authors', { exact: true }).press('Enter');
  await armFault(request, 'POST', '/api/v1/articles', [{ kind: 'status', status: 503 }]);
  await page.getByRole('button', { name: 'Create article' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Unavailable/i })).toBeVisible();
  await expect(page.getByLabel('URN slug')).toHaveValue(slug);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`Created once ${slug}`);
  expect(await hits(request, 'POST', '/api/v1/articles')).toBe(1);
  const token = await apiToken(request, 'curator', 'curator-demo');
  const headers = { Authorization: `Bearer ${token}` };
  expect((await request.get(api(`articles/urn:article:${slug}`), { headers })).status()).toBe(404);
  await page.getByRole('button', { name: 'Create article' }).click();
  await expect(page.getByRole('heading', { name: `Created once ${slug}`, level: 1 })).toBeVisible();
  expect((await request.get(api(`articles/urn:article:${slug}`), { headers })).status()).toBe(200);
  expect(await hits(request, 'POST', '/api/v1/articles')).toBe(2);
});
