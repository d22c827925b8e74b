import { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, armFault, createRecord, faultControl, signIn, signInCurator, unique, goInApp as visit, scan } from './helpers';

// Selection and bulk actions on list pages (issue 23 items 2 and 7): checkboxes by mouse and by
// keyboard, the page's checkbox, "Select all N matches", "Delete N selected" with one question
// naming N, per-row failures while the rest are deleted, the reading policy previewed by a dry
// run, and the keyboard sheet. Each journey searches for a word of its own, so it sees only the
// records it made.

/** A word no other journey's records carry (the search splits on anything not alphanumeric). */
function word(prefix: string) {
  return unique(prefix).replace(/[^a-z0-9]/gi, '');
}

/** `count` articles titled `Bulk <tag> <n>`, made through the API; their URNs in order. */
async function articles(request: APIRequestContext, tag: string, count: number) {
  const token = await apiToken(request, 'curator', 'curator-demo');
  const urns: string[] = [];
  for (let from = 1; from <= count; from += 10) {
    const made = await Promise.all(Array.from({ length: Math.min(10, count - from + 1) }, (_, i) => {
      const n = from + i;
      return createRecord(request, token, 'articles', { urn: `${tag}-${n}`, title: `Bulk ${tag} ${n}`, content: `Made for a bulk journey ${tag}.` });
    }));
    urns.push(...made.map((a: { urn: string }) => a.urn));
  }
  return urns;
}

/** Counts the DELETEs the page has open at once; `max` is the most seen. */
function deletesInFlight(page: Page) {
  const seen = { now: 0, max: 0, sent: 0 };
  const isDelete = (r: { method(): string; url(): string }) => r.method() === 'DELETE' && r.url().includes('/api/v1/');
  page.on('request', (r) => { if (isDelete(r)) { seen.now += 1; seen.sent += 1; seen.max = Math.max(seen.max, seen.now); } });
  const done = (r: { method(): string; url(): string }) => { if (isDelete(r)) seen.now -= 1; };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return seen;
}

async function searchFor(page: Page, tag: string, rows: number, limit = 25) {
  await visit(page, `/records/articles?q=${tag}&limit=${limit}`);
  await expect(page.locator('table.records tbody tr')).toHaveCount(rows);
  // Start the keys from the page, not from the search box.
  await page.getByRole('heading', { level: 1 }).click();
}

test.afterEach(async ({ request }) => {
  await request.delete(faultControl());
});

test('rows are chosen by mouse, keyboard and the page checkbox; a delete names N and reports the row that failed', async ({ page, request }) => {
  const tag = word('bulk');
  const urns = await articles(request, tag, 5);
  await signInCurator(page);
  await searchFor(page, tag, 5);
  const selected = page.locator('.selected-count');

  // Mouse (rows come in the search's order, which the wires break ties in differently).
  const rows = page.locator('table.records tbody tr');
  const first = rows.nth(0).getByRole('checkbox');
  await expect(first).toHaveAccessibleName(new RegExp(`^Select Bulk ${tag} \\d$`));
  await first.check();
  await expect(selected).toHaveText('1 selected');
  // Keyboard: from the first row's checkbox, j moves to the second row (visibly, and for
  // assistive technology), x chooses it.
  await page.keyboard.press('j');
  const second = rows.nth(1);
  await expect(second).toHaveAttribute('aria-current', 'true');
  await expect(second).toHaveClass(/current/);
  await expect(second.getByRole('link')).toBeFocused();
  await page.keyboard.press('x');
  await expect(second.getByRole('checkbox')).toBeChecked();
  await expect(selected).toHaveText('2 selected');
  // k goes back; x lets the first row go.
  await page.keyboard.press('k');
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('x');
  await expect(first).not.toBeChecked();
  await expect(selected).toHaveText('1 selected');

  // The page's checkbox: mixed while some are chosen, then all, then none.
  const header = page.getByRole('checkbox', { name: 'Select all rows on this page' });
  expect(await header.evaluate((e: HTMLInputElement) => e.indeterminate)).toBe(true);
  await header.click();
  await expect(selected).toHaveText('5 selected');
  await expect(header).toBeChecked();
  await header.click();
  await expect(selected).toHaveCount(0);
  await header.click();
  await expect(selected).toHaveText('5 selected');

  // The third row's DELETE fails once with a 500: reported, not retried; the rest go.
  const failing = `/api/v1/articles/${urns[2]}`;
  await armFault(request, 'DELETE', failing, [{ kind: 'status', status: 500 }]);
  const inFlight = deletesInFlight(page);
  await page.getByRole('button', { name: 'Delete 5 selected' }).click();
  const question = page.getByRole('alertdialog');
  await expect(question).toContainText('Delete 5 records? This cannot be undone.');
  await question.getByRole('button', { name: 'Delete 5' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 4 of 5.' })).toBeVisible();
  const failures = page.locator('.bulk-failures');
  await expect(failures).toContainText('1 not deleted:');
  await expect(failures).toContainText(`Bulk ${tag} 3`);
  await expect(failures).toContainText('Injected fault: status 500.');
  expect(inFlight.sent).toBe(5);
  expect(inFlight.max).toBeLessThanOrEqual(3);
  const report = await (await request.get(faultControl())).json();
  expect(report.hits.filter((h: { method: string; path: string }) => h.method === 'DELETE' && h.path === failing)).toHaveLength(1);

  // The failed row stays, still chosen; the others are gone.
  await expect(page.locator('table.records tbody tr')).toHaveCount(1);
  await expect(page.getByRole('checkbox', { name: `Select Bulk ${tag} 3` })).toBeChecked();
  await expect(selected).toHaveText('1 selected');
  const token = await apiToken(request, 'curator', 'curator-demo');
  for (const [i, urn] of urns.entries()) {
    const read = await request.get(api(`articles/${urn}`), { headers: { Authorization: `Bearer ${token}` } });
    expect(read.status(), urn).toBe(i === 2 ? 200 : 404);
  }
});

test('a whole search is chosen, its reading policy previewed by a dry run and applied; a reader no longer sees it', async ({ page, request }) => {
  const tag = word('policy');
  const urns = await articles(request, tag, 3);
  await signInCurator(page);
  await searchFor(page, tag, 2, 2);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Select all 3 matches' }).click();
  await expect(page.locator('.selected-count')).toHaveText('All 3 matches selected');
  await page.getByRole('button', { name: 'Reading policy for 3 selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reading policy for 3 selected' });
  await expect(dialog).toBeVisible();
  await scan(page, 'the reading-policy dialog');
  await dialog.getByLabel('Reader visibility').selectOption('hidden');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText('3 records match.')).toBeVisible();
  for (const n of [1, 2, 3]) await expect(dialog.locator('.policy-sample')).toContainText(`Bulk ${tag} ${n}`);
  // The dry run changed nothing: a reader still finds them.
  const reader = await apiToken(request, 'olivia', 'olivia-demo');
  const readerSearch = async () => {
    const answer = await request.post(api('articles/search'), { headers: { Authorization: `Bearer ${reader}` }, data: { q: tag, limit: 10 } });
    return (await answer.json()).result.total as number;
  };
  expect(await readerSearch()).toBe(3);
  await scan(page, 'the reading-policy preview');
  await dialog.getByRole('button', { name: 'Apply to 3 records' }).click();
  await expect(dialog.getByText('Change the reading policy of 3 records?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, apply' }).click();
  await expect(dialog.getByText('Changed 3 records.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // Readers lose them in search and reads; the curator still sees them, marked hidden.
  expect(await readerSearch()).toBe(0);
  const read = await request.get(api(`articles/${urns[0]}`), { headers: { Authorization: `Bearer ${reader}` } });
  expect(read.status()).toBe(404);
  await signIn(page, 'olivia', 'olivia-demo');
  await visit(page, `/records/articles?q=${tag}`);
  await expect(page.getByText('Nothing matches this search.')).toBeVisible();
});

test('the keys: / searches, ? opens the sheet (Escape closes it, the focus returns), keys typed into the search stay there', async ({ page, request }) => {
  const tag = word('keys');
  await articles(request, tag, 2);
  await signInCurator(page);
  await searchFor(page, tag, 2);
  await page.keyboard.press('j');
  const link = page.locator('table.records tbody tr').first().getByRole('link');
  await expect(link).toBeFocused();
  await scan(page, 'a list with row checkboxes and the current row');
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  for (const what of ['Go to the search box', 'Next row', 'Previous row', 'Select or unselect the row', 'Open the row']) {
    await expect(sheet).toContainText(what);
  }
  await scan(page, 'the keyboard sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(link).toBeFocused();
  // Enter opens the row.
  const title = (await link.textContent()) ?? '';
  expect(title).toMatch(new RegExp(`^Bulk ${tag} \\d$`));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.locator('table.records tbody tr')).toHaveCount(2);
  await page.getByRole('heading', { level: 1 }).click();
  // / goes to the search box; j and x typed there are text, not keys.
  await page.keyboard.press('/');
  const search = page.locator('#search-q');
  await expect(search).toBeFocused();
  await page.keyboard.type('jx');
  await expect(search).toHaveValue(`${tag}jx`);
  await expect(page.locator('.selected-count')).toHaveCount(0);
  await expect(page.locator('table.records tr[aria-current]')).toHaveCount(0);
  // The delete question is also clean under axe.
  await search.fill(tag);
  await search.press('Enter');
  await expect(page.locator('table.records tbody tr')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Delete 2 selected' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await scan(page, 'the bulk delete question');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
});

test('bulk delete of 100 rows: never more requests at once than the connection limit (time reported)', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const tag = word('hundred');
  await articles(request, tag, 100);
  await signInCurator(page);
  await searchFor(page, tag, 25);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Select all 100 matches' }).click();
  const inFlight = deletesInFlight(page);
  await page.getByRole('button', { name: 'Delete 100 selected' }).click();
  const started = Date.now();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete 100' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 100 of 100.' })).toBeVisible({ timeout: 120_000 });
  const ms = Date.now() - started;
  expect(inFlight.sent).toBe(100);
  // interface.md §8: at most 3 connections to the data API (larder_contract::limits::DATA_CONNECTIONS).
  expect(inFlight.max).toBeLessThanOrEqual(3);
  const figure = `bulk delete of 100 rows (${process.env.LARDER_WIRE ?? 'reference'} wire): ${ms} ms, at most ${inFlight.max} DELETEs in flight`;
  testInfo.annotations.push({ type: 'measure', description: figure });
  console.log(`MEASURE ${figure}`);
  await expect(page.getByText('Nothing matches this search.')).toBeVisible();
});
