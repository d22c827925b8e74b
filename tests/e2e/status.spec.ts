import { test, expect } from './fixtures';
import { api, apiToken, goInApp, signIn, scanBothSchemes } from './helpers';

// Issue 40 item 2: Administration › Status. The service's health, its indices' drift and the
// embedding coverage per collection, with a dry-run Preview whose count the Backfill then queues.
// larder-server serves the routes on both wires (production's households service lacks them, and
// the page says so per section: not run there).

type Coverage = { index: string; total: number; embedded: number; missing: number };

async function coverage(request: import('@playwright/test').APIRequestContext, token: string, index: string) {
  const answer = await request.get(api('system/embeddings'), { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  const rows: Coverage[] = (await answer.json()).result.indices;
  const row = rows.find((r) => r.index === index);
  expect(row, `system/embeddings lists ${index}`).toBeTruthy();
  return row!;
}

test('an administrator sees health, drift and coverage; the backfill queues what its preview counted', async ({ page, request }) => {
  const token = await apiToken(request, 'admin', 'admin-demo');
  await signIn(page, 'admin', 'admin-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Status' }).click();
  await expect(page.getByRole('heading', { name: 'Status', level: 1 })).toBeVisible();

  // Health, as the service answers it.
  const health = (await (await request.get(api('system/health'))).json()).result;
  await expect(page.getByTestId('health-summary')).toHaveText(
    health.healthy ? 'Every part of the service works.' : 'Part of the service is not working.');
  // Each index the service lists, with its documents.
  const indices = (await (await request.get(api('system/indices'), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  await expect(page.getByTestId('indices').locator('tbody tr')).toHaveCount(indices.indices.length);

  // Coverage of the guidelines, then a preview: its count is the service's dry run.
  const before = await coverage(request, token, 'guidelines');
  const row = page.getByTestId('embeddings').locator('tr[data-index="guidelines"]');
  await expect(row.locator('td').nth(0)).toHaveText(before.total.toLocaleString('en'));
  await expect(row.locator('td').nth(2)).toHaveText(before.missing.toLocaleString('en'));
  await scanBothSchemes(page, 'the status page');
  await row.getByRole('button', { name: 'Preview' }).click();
  const preview = row.getByTestId('backfill-preview');
  await expect(preview).toContainText('Would queue');
  const queued = Number((await preview.textContent())!.match(/Would queue ([\d,]+)/)![1].replace(/,/g, ''));
  expect(queued).toBeGreaterThan(0);
  // Nothing changed by the preview.
  expect((await coverage(request, token, 'guidelines')).embedded).toBe(before.embedded);

  // The backfill queues that many, and the coverage read again shows them embedded.
  await row.getByRole('button', { name: /^Backfill [\d,]+ records?$/ }).click();
  await expect(page.locator('.toast', { hasText: `${queued.toLocaleString('en')} record` })).toBeVisible();
  const after = await coverage(request, token, 'guidelines');
  expect(after.embedded - before.embedded).toBe(queued);
  await expect(row.locator('td').nth(1)).toContainText(after.embedded.toLocaleString('en'));
  await expect(row.locator('td').nth(2)).toHaveText(after.missing.toLocaleString('en'));

  // Refresh reads again; the page stays.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(row.locator('td').nth(2)).toHaveText(after.missing.toLocaleString('en'));
});

test('a curator is not allowed on the status page, and its link is not offered', async ({ page }) => {
  await signIn(page, 'curator', 'curator-demo');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Status' })).toHaveCount(0);
  await goInApp(page, '/status');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});
