import { test, expect } from './fixtures';
import { apiToken, createRecord, signInCurator as signIn, unique, goInApp as visit } from './helpers';

test('search: facets filter when clicked, sort, total, and highlights that stay text', async ({ page, request }) => {
  const token = await apiToken(request);
  const word = unique('marker').replace(/[^a-z0-9]/g, '');
  const title = `Markup <b>bold</b> <script>alert(1)</script> ${word}`;
  for (const [slug, year] of [[`${word}-a`, 2001], [`${word}-b`, 2002], [`${word}-c`, 2002]] as const) {
    await createRecord(request, token, 'articles', { urn: slug, title: `${title} ${slug}`, publication_year: year });
  }

  await signIn(page);
  await visit(page, '/records/articles');
  await page.getByRole('searchbox').fill(word);
  await expect(page.getByText('3 found')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  // The service's markup is shown as characters; only the highlight tags became <em>.
  const first = page.locator('table.records tbody tr').first();
  await expect(first.getByRole('link')).toContainText('<b>bold</b> <script>alert(1)</script>');
  await expect(page.locator('table.records b, table.records script')).toHaveCount(0);
  await expect(first.locator('em.hit').first()).toHaveText(word);

  // A facet value filters; the filter shows as a removable chip.
  // Production stores a year as a date (2002-01-01).
  await page.getByRole('region', { name: 'Filter by Publication year' }).getByRole('button', { name: /2002/ }).click();
  await expect(page.getByText('2 found')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Filters in force' })).toContainText('publication_year:2002-01-01');
  await expect(page.getByRole('region', { name: 'Filter by Publication year' }).getByRole('button', { name: /2002/ })).toHaveAttribute('aria-pressed', 'true');

  // Sort by title, both ways round through the URL.
  await page.getByLabel('Sort').selectOption('title asc');
  await expect(page.locator('table.records tbody tr').first()).toContainText(`${word}-b`);
  await page.getByRole('button', { name: 'Remove filter publication_year:2002-01-01' }).click();
  await expect(page.getByText('3 found')).toBeVisible();
  await expect(page.locator('table.records tbody tr').first()).toContainText(`${word}-a`);
});
