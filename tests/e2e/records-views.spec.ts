import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, createRecord, goInApp, signInCurator as signIn, unique, scan } from './helpers';

// Issue 23, items 3 to 6: columns and saved views, guideline import, a record's history, and
// edit conflicts.

/** The list table's column headers. */
/** The field columns' headings (the row-selection column has none of its own text). */
async function headers(page: Page) {
  return page.locator('table.records thead th:not(.select)').allTextContents();
}

test('columns and a saved view outlive signing out, and a shared view link works in a fresh browser', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await goInApp(page, '/records/articles');
  await expect(page.locator('table.records tbody tr').first()).toBeVisible();
  expect(await headers(page)).toEqual(['Title', 'Publication year', 'Venue', 'Status', 'Identifier']);

  // Columns: hide one, show one, move it up, all by keyboard-reachable controls.
  await page.getByRole('button', { name: 'Columns' }).click();
  const dialog = page.getByRole('dialog', { name: 'Columns' });
  await expect(dialog).toBeVisible();
  await scan(page, 'the Columns dialog');
  await dialog.getByRole('checkbox', { name: 'Publication year' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Language', exact: true }).check();
  const up = dialog.getByRole('button', { name: 'Move Language up' });
  await up.focus();
  await page.keyboard.press('Enter');
  // The focus stays on the control used, though its row moved.
  await expect(up).toBeFocused();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => headers(page)).toEqual(['Title', 'Venue', 'Language', 'Status', 'Identifier']);

  // A search, then a view of it.
  await page.getByLabel('Search articles').fill('vitamin');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/q=vitamin/);
  await expect(page.getByRole('status').filter({ hasText: /found/ })).toBeVisible();
  await page.getByRole('button', { name: 'Save view' }).click();
  const save = page.getByRole('dialog', { name: 'Save view' });
  await scan(page, 'the Save view dialog');
  await save.getByRole('button', { name: 'Save view' }).click();
  await expect(save.getByRole('alert')).toContainText('A name of 1 to 100 characters is needed.');
  await save.getByLabel('Name').fill('Vitamin articles');
  await save.getByLabel('Name').press('Enter');
  const views = page.getByRole('navigation', { name: 'Saved views' });
  await expect(views.getByRole('link', { name: 'Vitamin articles' })).toBeVisible();

  // Preferences outlive the session; the session does not leave anything in them.
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).toContain('Vitamin articles');
  expect(stored).not.toMatch(/Bearer|access_token|curator-demo/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page);
  await goInApp(page, '/records/articles');
  await expect.poll(() => headers(page)).toEqual(['Title', 'Venue', 'Language', 'Status', 'Identifier']);
  await expect(page.getByLabel('Search articles')).toHaveValue('');
  await views.getByRole('link', { name: 'Vitamin articles' }).click();
  await expect(page).toHaveURL(/q=vitamin.*cols=venue%2Clanguage%2Cstatus/);
  await expect(page.getByLabel('Search articles')).toHaveValue('vitamin');
  const shared = page.url();

  // Exported as a file.
  await page.getByRole('button', { name: 'Export or import views' }).click();
  const transfer = page.getByRole('dialog', { name: 'Export or import views' });
  await scan(page, 'the Export or import views dialog');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    transfer.getByRole('button', { name: 'Export 1 view' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('larder-views.json');
  const file = JSON.parse(await (await import('fs')).promises.readFile((await download.path())!, 'utf8'));
  expect(file.format).toBe('larder-views');
  expect(file.views).toEqual([{ name: 'Vitamin articles', collection: 'articles', query: 'q=vitamin&limit=25', columns: ['venue', 'language', 'status'] }]);
  await transfer.getByRole('button', { name: 'Close' }).click();

  // A fresh browser: the shared URL shows the search and the columns without any stored choice.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other);
  const path = new URL(shared).pathname.replace(/^.*?\/records\//, '/records/') + new URL(shared).search;
  await goInApp(other, path);
  await expect(other.getByLabel('Search articles')).toHaveValue('vitamin');
  await expect.poll(() => headers(other)).toEqual(['Title', 'Venue', 'Language', 'Status', 'Identifier']);
  await expect(other.getByRole('navigation', { name: 'Saved views' })).toHaveCount(0);

  // Imported there: a bad file is refused by view, the exported one is taken.
  await other.getByRole('button', { name: 'Export or import views' }).click();
  const into = other.getByRole('dialog', { name: 'Export or import views' });
  const bad = { ...file, views: [...file.views, { name: 'Broken', collection: 'shoes', query: '', columns: [] }] };
  await into.getByLabel('Or paste views JSON').fill(JSON.stringify(bad));
  await into.getByRole('button', { name: 'Import views' }).click();
  await expect(into.getByRole('alert')).toContainText('View 2 “Broken”: no collection "shoes"');
  await into.getByLabel('Or paste views JSON').fill(JSON.stringify(file));
  await into.getByRole('button', { name: 'Import views' }).click();
  await expect(into.getByRole('status')).toHaveText('1 view imported');
  await into.getByRole('button', { name: 'Close' }).click();
  await expect(other.getByRole('navigation', { name: 'Saved views' }).getByRole('link', { name: 'Vitamin articles' })).toBeVisible();
  await context.close();
});

test('guidelines are imported after a check that names the bad row, in calls of at most 1,000', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request);
  const slug = unique('import-guide');
  await createRecord(request, token, 'guides', { urn: slug, title: `Import guide ${slug}`, status: 'draft' });
  await signIn(page);
  await goInApp(page, `/records/guides/urn:guide:${slug}`);
  await expect(page.getByText('This guide has no guidelines yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Import guidelines' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import guidelines' });
  const rows = [
    { rule_text: 'Eat vegetables every day.', sequence_no: 1, action_type: 'eat' },
    { rule_text: 'Juggle fruit.', sequence_no: 2, action_type: 'juggle' },
    { rule_text: 'Drink water.', sequence_no: 3, food_groups: ['beverages'] },
  ];
  await dialog.getByLabel('Or paste JSON').fill(JSON.stringify({ guidelines: rows }));
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Row 2, action_type:');
  await expect(dialog.getByRole('button', { name: /^Import \d+ guideline/ })).toBeDisabled();
  await scan(page, 'the guideline import with a problem');
  rows[1].action_type = 'limit';
  await dialog.getByLabel('Or paste JSON').fill(JSON.stringify({ guidelines: rows }));
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.locator('.preview')).toHaveText('3 guidelines');
  await dialog.getByRole('button', { name: 'Import 3 guidelines' }).click();
  await expect(dialog.locator('.summary')).toHaveText('3 guidelines imported');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('ol.guidelines > li')).toHaveCount(3);

  // 1,001 guidelines: two calls, counted as the page sends them.
  const imports: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/import')) imports.push(r.url()); });
  const many = Array.from({ length: 1001 }, (_, i) => ({ rule_text: `Bulk rule ${i + 1}.`, sequence_no: 100 + i }));
  await page.getByRole('button', { name: 'Import guidelines' }).click();
  await dialog.getByLabel('Or paste JSON').fill(JSON.stringify(many));
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.locator('.preview')).toHaveText(/^1.?001 guidelines, sent in 2 calls$/);
  await dialog.getByRole('button', { name: /^Import 1.?001 guidelines$/ }).click();
  await expect(dialog.locator('.summary')).toHaveText(/^1.?001 guidelines imported$/, { timeout: 30_000 });
  expect(imports).toHaveLength(2);
  const listed = await request.get(api(`guidelines/by-guide/urn:guide:${slug}?limit=100&offset=1000`), { headers: { Authorization: `Bearer ${token}` } });
  expect(((await listed.json()).result as unknown[]).length).toBe(4);
});

test("a record's History tab shows each enhancement's fields before and after, newest first", async ({ page, request }) => {
  const token = await apiToken(request);
  const slug = unique('history-article');
  await createRecord(request, token, 'articles', { urn: slug, title: `History ${slug}` });
  for (const category of ['first category', 'second category']) {
    const answer = await request.patch(api(`articles/${slug}/enhance`), {
      headers: { Authorization: `Bearer ${token}` },
      data: { agent: 'summariser', fields: { ai_category: category } },
    });
    expect(answer.ok(), await answer.text()).toBeTruthy();
  }
  await signIn(page);
  await goInApp(page, `/records/articles/urn:article:${slug}`);
  const fields = page.getByRole('tab', { name: 'Fields' });
  await expect(fields).toHaveAttribute('aria-selected', 'true');
  await fields.focus();
  await page.keyboard.press('ArrowRight');
  const history = page.getByRole('tab', { name: 'History' });
  await expect(history).toHaveAttribute('aria-selected', 'true');
  await expect(history).toBeFocused();
  const entries = page.locator('ol.history > li');
  await expect(entries.first()).toContainText('Enhanced by the summariser agent');
  const newest = entries.first().locator('table tbody tr');
  // The field's name (with the AI mark where the service keeps it machine-written).
  await expect(newest.locator('th')).toHaveText(/^AI category( AI)?$/);
  await expect(newest.locator('td').nth(0)).toHaveText('first category');
  await expect(newest.locator('td').nth(1)).toHaveText('second category');
  await expect(entries.last()).toContainText('Created by');
  await scan(page, 'the History tab');
});

test('a record changed while its form is open: what changed is shown and a merge by field keeps both', async ({ page, request }) => {
  const token = await apiToken(request);
  const slug = unique('conflict-article');
  await createRecord(request, token, 'articles', { urn: slug, title: 'Conflict original', description: 'Original description' });
  await signIn(page);
  await goInApp(page, `/records/articles/urn:article:${slug}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Title', { exact: true }).fill('My title');
  await page.getByLabel('Venue', { exact: true }).fill('My venue');

  // Meanwhile someone else saves two fields, one of them the one typed here.
  const theirs = await request.patch(api(`articles/${slug}`), {
    headers: { Authorization: `Bearer ${token}` },
    data: { description: 'Their description', venue: 'Their venue' },
  });
  expect(theirs.ok(), await theirs.text()).toBeTruthy();

  await page.getByRole('button', { name: 'Save changes' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Changed while you were editing' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('group', { name: /^Title/ })).toContainText('My title');
  await expect(dialog.getByRole('group', { name: /^Description/ })).toContainText('Their description');
  await expect(dialog.getByRole('group', { name: /^Venue/ })).toContainText('Changed by both');
  await scan(page, 'the edit conflict dialog');
  // Nothing was sent yet.
  const before = await request.get(api(`articles/${slug}`), { headers: { Authorization: `Bearer ${token}` } });
  expect((await before.json()).result.title).toBe('Conflict original');

  await dialog.getByRole('group', { name: /^Venue/ }).getByLabel(/^Theirs/).check();
  await dialog.getByRole('button', { name: 'Save the merge' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'My title', level: 1 })).toBeVisible();
  const after = (await (await request.get(api(`articles/${slug}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  expect([after.title, after.description, after.venue]).toEqual(['My title', 'Their description', 'Their venue']);
});
