import { APIRequestContext } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, armFault, goInApp, signIn, signInCurator, scanBothSchemes } from './helpers';

// Issue 40 item 1: Knowledge base › Overview, from search totals and facets alone. Its numbers
// equal fresh search totals, and each leads to a list of exactly that many rows.

async function searched(request: APIRequestContext, token: string, collection: string, fields: string[]) {
  const answer = await request.post(api(`${collection}/search`), {
    headers: { Authorization: `Bearer ${token}` }, data: { q: '', limit: 1, fields, facet_limit: 100 },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()).result as { total: number; facets: Record<string, { value: string; count: number }[]> };
}

test('the overview\'s numbers are the service\'s, and each opens a list of that many rows', async ({ page, request }) => {
  const token = await apiToken(request);
  await signInCurator(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  const guides = await searched(request, token, 'guides', ['status', 'review_status']);
  const card = page.locator('.overview-card[data-collection="guides"]');
  await expect(card.locator('.overview-total strong')).toHaveText(guides.total.toLocaleString('en'));
  const active = guides.facets.status.find((f) => f.value === 'active')!;
  const legend = card.locator('.breakdown[data-field="status"] .legend');
  await expect(legend.getByRole('link', { name: `Active: ${active.count}` })).toBeVisible();
  // The table on demand says the same numbers.
  await card.locator('.breakdown[data-field="status"] summary').click();
  await expect(card.locator('.breakdown[data-field="status"] table tbody tr', { hasText: 'Active' }).locator('td').first())
    .toHaveText(active.count.toLocaleString('en'));

  // Guidelines awaiting review, as the facet counts them.
  const guidelines = await searched(request, token, 'guidelines', ['status', 'review_status']);
  const inReview = guidelines.facets.review_status.find((f) => f.value === 'in_review')?.count ?? 0;
  const waiting = page.locator('.overview-card[data-collection="guidelines"]').getByTestId('awaiting-review');
  await expect(waiting.getByRole('link', { name: /In review$/ })).toHaveText(`${inReview} In review`);
  await scanBothSchemes(page, 'the overview');

  // The number leads to a list of exactly that many rows.
  await legend.getByRole('link', { name: `Active: ${active.count}` }).click();
  await expect(page).toHaveURL(/\/records\/guides\?q=&fq=status%3Aactive/);
  await expect(page.locator('p.total')).toHaveText(`${active.count.toLocaleString('en')} found`);
});

test('a collection whose search fails shows its failure alone; a reader is not allowed', async ({ page, request }) => {
  await signInCurator(page);
  await armFault(request, 'POST', '/api/v1/textbooks/search', [{ kind: 'status', status: 400 }]);
  await goInApp(page, '/overview');
  await expect(page.locator('.overview-card[data-collection="textbooks"] [role="alert"]')).toBeVisible();
  await expect(page.locator('.overview-card[data-collection="guides"] .overview-total strong')).toBeVisible();
  await expect(page.locator('.overview-card[data-collection="articles"] [role="alert"]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'noah', 'noah-demo');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' })).toHaveCount(0);
  await goInApp(page, '/overview');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});

for (const lang of ['en', 'hu', 'sl', 'el']) {
  test(`at 1280 px an administrator's header is one row (${lang})`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('larder.language', l), lang);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('sign-in');
    await page.locator('#boot-name').fill('admin');
    await page.locator('#boot-secret').fill('admin-demo');
    await page.locator('#boot-secret').press('Enter');
    await expect(page.locator('.who')).toContainText('admin');
    // Every link an administrator gets, the status page's included (shown once the service says
    // it offers system/health).
    await expect(page.locator('.mainnav a[href$="/status"]')).toBeVisible();
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const brand = await top('.topbar .brand');
    for (const selector of ['.mainnav a', 'select.language', 'button.theme', '.who', '.topbar-menu > button']) {
      const box = await top(selector);
      // In the brand's row: their middles within a few pixels.
      expect(Math.abs((box.y + box.height / 2) - (brand.y + brand.height / 2)), `${selector} (${lang})`).toBeLessThan(8);
    }
    const overflow = await page.locator('.topbar').evaluate((bar) => bar.scrollWidth - bar.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
