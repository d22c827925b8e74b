import { readFileSync } from 'node:fs';
import { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { apiToken, armFault, createRecord, faultControl, goInApp, signInCurator, unique, parseCsv, scan } from './helpers';

// "Export" on a list (issue 23): a search with more matches than one page (and than one of the
// export's own pages of 200) comes out whole as JSON and as CSV with correct quoting; Cancel
// stops it before the next request; a failure says so and "Try again" works.

test.describe.configure({ mode: 'serial' });

const MATCHES = 210;
let word = '';
let urns: string[] = [];
let quotedTitle = '';

/** Requests a fault rule matched since it was armed. */
async function hits(request: APIRequestContext, method: string, path: string) {
  const report = await (await request.get(faultControl())).json();
  return report.hits.filter((h: { method: string; path: string }) => h.method === method && h.path === path).length;
}

async function openSearch(page: Page, request: APIRequestContext) {
  // No fault left armed by an earlier journey.
  await request.delete(faultControl());
  await signInCurator(page);
  await goInApp(page, `/records/articles?q=${word}`);
  await expect(page.locator('p.total')).toHaveText(`${MATCHES} found`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  return page.getByRole('group', { name: 'Export' });
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request);
  word = unique('exportword').replace(/-/g, '');
  quotedTitle = `Salt, "low" and ${word}`;
  const titles = [quotedTitle, ...Array.from({ length: MATCHES - 1 }, (_, n) => `Export ${word} number ${n}`)];
  urns = [];
  for (let start = 0; start < titles.length; start += 10) {
    const made = await Promise.all(titles.slice(start, start + 10).map((title, n) =>
      createRecord(request, token, 'articles', { urn: `${word}-${start + n}`, title })));
    urns.push(...made.map((r: { urn: string }) => r.urn));
  }
});

test('a search with more matches than a page is exported whole, as JSON and as CSV', async ({ page, request }) => {
  const panel = await openSearch(page, request);
  await expect(panel).toContainText('Every match of this list or search');
  await scan(page, 'the export panel');

  const [json] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download JSON' }).click()]);
  expect(json.suggestedFilename()).toMatch(/^articles-\d{4}-\d{2}-\d{2}\.json$/);
  const rows = JSON.parse(readFileSync((await json.path())!).toString('utf8'));
  expect(rows.length).toBe(MATCHES);
  expect(new Set(rows.map((r: { urn: string }) => r.urn))).toEqual(new Set(urns));
  expect(rows.find((r: { title: string }) => r.title === quotedTitle)).toBeTruthy();
  await expect(panel.getByRole('status')).toContainText(`Saved ${MATCHES} rows`);

  const [csv] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
  const text = readFileSync((await csv.path())!).toString('utf8');
  expect(text).toContain(`"Salt, ""low"" and ${word}"`);
  const table = parseCsv(text);
  expect(table.length).toBe(MATCHES + 1);
  const titleColumn = table[0].indexOf('Title');
  const urnColumn = table[0].indexOf('URN');
  expect(titleColumn).toBeGreaterThanOrEqual(0);
  expect(table[0][table[0].length - 1]).toBe('Other fields');
  expect(table.slice(1).map((r) => r[titleColumn])).toContain(quotedTitle);
  expect(new Set(table.slice(1).map((r) => r[urnColumn]))).toEqual(new Set(urns));
});

test('Cancel stops the export before its next request, and nothing is saved', async ({ page, request }) => {
  const panel = await openSearch(page, request);
  let saved = 0;
  page.on('download', () => { saved += 1; });
  // The first page of the export arrives late, so Cancel comes while it is on its way.
  await request.delete(faultControl());
  await armFault(request, 'POST', '/api/v1/articles/search', [{ kind: 'delay', delay_ms: 3000 }]);
  await panel.getByRole('button', { name: 'Download CSV' }).click();
  await expect(panel.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
  await panel.getByRole('button', { name: 'Cancel export' }).click();
  await expect(panel.getByRole('status')).toHaveText('Export cancelled.', { timeout: 10_000 });
  await page.waitForTimeout(500);
  expect(saved).toBe(0);
  // Only the page already asked for went out: the second of two never did.
  expect(await hits(request, 'POST', '/api/v1/articles/search')).toBe(1);
});

test('a failed export says so, and Try again saves every match', async ({ page, request }) => {
  const panel = await openSearch(page, request);
  await request.delete(faultControl());
  // A search is a POST, which the client never repeats by itself: one failure stops the export.
  await armFault(request, 'POST', '/api/v1/articles/search', [{ kind: 'html' }]);
  await panel.getByRole('button', { name: 'Download JSON' }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('The export failed', { timeout: 20_000 });
  const [json] = await Promise.all([page.waitForEvent('download'), alert.getByRole('button', { name: 'Try again' }).click()]);
  expect(JSON.parse(readFileSync((await json.path())!).toString('utf8')).length).toBe(MATCHES);
});

test('with rows chosen, Export saves only those rows', async ({ page, request }) => {
  await request.delete(faultControl());
  await signInCurator(page);
  await goInApp(page, `/records/articles?q=${word}`);
  await expect(page.locator('p.total')).toHaveText(`${MATCHES} found`);
  const boxes = page.locator('table.records tbody').getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  const chosen = await Promise.all([0, 1].map(async (n) => ((await boxes.nth(n).getAttribute('aria-label')) ?? '').replace(/^Select /, '')));
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Export' });
  await expect(panel).toContainText('Only the 2 selected rows.');
  const [json] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download JSON' }).click()]);
  const rows = JSON.parse(readFileSync((await json.path())!).toString('utf8'));
  expect(rows.length).toBe(2);
  expect(new Set(rows.map((r: { title: string }) => r.title))).toEqual(new Set(chosen));
});
