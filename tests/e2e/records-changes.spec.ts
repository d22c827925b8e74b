import { Request } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, signInCurator as signIn, goInApp as visit, unique } from './helpers';

// Issue 40 item 3: changes as they happen, without a push channel. An open list asks at most
// every 30 s which records in view changed and says so with Refresh; an open form says it was
// changed by someone else, and its save shows the edit-conflict view; nothing is asked once
// neither is open.

const GUIDE = 'urn:guide:healthy-plates-children';

async function changeBehind(request: import('@playwright/test').APIRequestContext, fields: object) {
  const token = await apiToken(request);
  const answer = await request.patch(api(`guides/${GUIDE}`), { headers: { Authorization: `Bearer ${token}` }, data: fields });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

test('a change made through the API shows on an open list within 35 s; Refresh shows it; closed, nothing is asked', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await visit(page, '/records/guides?q=&limit=25');
  const row = page.locator('table.records tbody tr', { hasText: 'Healthy Plates for Children Under Five' });
  await expect(row).toBeVisible();
  const asked: Request[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/search')) asked.push(r); });
  const shownAt = Date.now();
  const year = 2000 + (Date.now() % 20);
  await changeBehind(request, { publication_year: year });
  const notice = page.getByTestId('list-changes');
  await expect(notice).toHaveText(/^1 record changed since this list was read\./, { timeout: 35_000 });
  expect(Date.now() - shownAt).toBeLessThan(35_000);
  // One ask about the change: the records updated since, their stamps only.
  expect(asked.length).toBeGreaterThanOrEqual(1);
  expect(asked[asked.length - 1].postDataJSON()).toMatchObject({ fl: ['urn', 'updated_at'] });
  await notice.getByRole('button', { name: 'Refresh' }).click();
  await expect(notice).toHaveCount(0);
  await expect(row).toContainText(String(year));

  // Nothing open that watches: no ask in 35 s.
  await visit(page, '/');
  asked.length = 0;
  await page.waitForTimeout(35_000);
  expect(asked, 'no search while no list is open').toEqual([]);
});

test('an open form says it was changed by someone else, and its save shows what changed', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await visit(page, `/records/guides/${GUIDE}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const theirs = unique('Described elsewhere');
  await changeBehind(request, { description: theirs });
  await expect(page.getByTestId('form-changed')).toBeVisible({ timeout: 35_000 });
  await page.getByLabel('Short title', { exact: true }).fill(unique('Plates'));
  await page.getByRole('button', { name: 'Save changes' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(theirs);
});
