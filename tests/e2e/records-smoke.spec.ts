import { test, expect } from './fixtures';
import { signInCurator as signIn, screenshots as screens, goInApp as visit } from './helpers';

test('every collection lists, and records open', async ({ page }) => {
  const problems: string[] = [];
  // Console errors other than failed loads, which are checked by URL below.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  // config.json is optional: its 404 is expected.
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/config.json')) problems.push(`${r.status()} ${r.url()}`); });
  await signIn(page);
  await visit(page, '/records/articles');
  await expect(page.getByRole('heading', { name: 'Articles', level: 1 })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Vitamin D and bone health in older adults', exact: true })).toBeVisible();
  expect(await page.locator('table.records tbody tr').count()).toBeGreaterThanOrEqual(20);
  await screens(page, 'articles-list');
  for (const [name, expected] of [
    ['Guides', 'Eat Well: National Dietary Guidelines 2024'],
    ['Textbooks', 'Foundations of Nutrition Science'],
    ['Food composition tables', 'Nordic Food Composition Table 2023'],
    // Issue 39 item 6: organizations and recipe collections, collections like the others.
    ['Organizations', 'Hellenic Nutrition Institute'],
    ['Recipe collections', 'Mediterranean Home Cooking'],
  ]) {
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: expected })).toBeVisible();
  }
  // Artifacts have no listing of their own: the page says where they are.
  await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Artifacts' }).click();
  await expect(page.getByText('Artifacts belong to records and are listed on each record')).toBeVisible();
  await page.locator('ul.parent-links').getByRole('link', { name: 'Guides' }).click();
  await page.getByRole('link', { name: 'Eat Well: National Dietary Guidelines 2024' }).click();
  await expect(page.getByRole('link', { name: 'eat-well-2024-summary.txt' })).toBeVisible();
  await screens(page, 'artifacts-of-a-guide');
  // Identifier-only listings show titles, resolved from the records.
  await visit(page, '/records/guidelines');
  await expect(page.getByRole('heading', { name: 'Guidelines', level: 1 })).toBeVisible();
  await expect(page.locator('table.records tbody tr').first().getByRole('link')).not.toHaveText(/^[0-9a-f-]{36}$/);
  // Passages have no collection-wide list: the page says where they are.
  await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Passages' }).click();
  await page.getByRole('link', { name: 'Go to the textbooks' }).click();
  await page.getByRole('link', { name: 'Foundations of Nutrition Science' }).click();
  await page.getByRole('navigation', { name: 'Table of contents' }).getByRole('button', { name: /^Show pages of / }).first().click();
  await page.locator('ol.passages > li').first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Carbohydrates');
  await expect(page.locator('dl.fields')).toContainText('Structure path');
  expect(problems).toEqual([]);
});
