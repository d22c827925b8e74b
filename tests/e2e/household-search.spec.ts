import { test, expect } from './fixtures';
import { api, apiToken, production, signIn, scanBothSchemes } from './helpers';

// Issue 40 item 5: administrators find a household by name or owner, filter by region and sort
// by name, members or creation, all in the URL; where the service cannot search (production's
// list takes only paging), the page says so and opens a household by its id.

test('an administrator searches households by name, sorts them by members, and the URL keeps it', async ({ page, request }) => {
  await signIn(page, 'admin', 'admin-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Households' }).click();
  const form = page.getByRole('search');
  await form.getByLabel('Name or owner').fill('parker');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/households\?q=parker&limit=25&offset=0$/);
  if (production) {
    // Production's list ignores the search: said, with a way to open a household by its id.
    await expect(page.getByTestId('cannot-search')).toBeVisible();
    const token = await apiToken(request, 'olivia', 'olivia-demo');
    const own = (await (await request.get(api('households/me'), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
    await page.getByLabel('Open a household by its id').fill(own.id);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/households/${own.id}$`));
    await expect(page.getByRole('heading', { name: own.name, level: 1 })).toBeVisible();
    return;
  }
  const token = await apiToken(request, 'admin', 'admin-demo');
  const searched = (await (await request.get(api('households?q=parker&limit=25&offset=0'), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  await expect(page.locator('p.total')).toHaveText(`${searched.total} found`);
  const rows = page.locator('table.records tbody tr');
  await expect(rows).toHaveCount(searched.households.length);
  await expect(rows.first()).toContainText(/parker/i);
  await expect(page.getByTestId('cannot-search')).toHaveCount(0);
  await scanBothSchemes(page, 'a household search');

  // Every household, most members first: the members column never grows down the page.
  await form.getByLabel('Name or owner').fill('');
  await form.getByLabel('Sort').selectOption('member_count:desc');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/sort=member_count&order=desc/);
  // The search's rows stay on screen, marked busy, until the new answer replaces them: wait for it.
  const every = (await (await request.get(api('households?sort=member_count&order=desc&limit=25&offset=0'), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  expect(every.households.length).toBeGreaterThan(1);
  await expect(page.locator('.listing')).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('p.total')).toHaveText(`${every.total} found`);
  await expect(rows).toHaveCount(every.households.length);
  await expect(rows.locator('td:nth-child(3)', { hasText: '…' })).toHaveCount(0);
  const counts = (await rows.locator('td:nth-child(3)').allTextContents()).map(Number);
  expect(counts.length).toBeGreaterThan(1);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
});
