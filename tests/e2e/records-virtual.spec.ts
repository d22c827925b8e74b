import { test, expect } from './fixtures';
import { apiToken, signIn, unique, visit } from './records-common';

test('a page of 1000 rows renders only what is in view and scrolls to the end', async ({ page, request }) => {
  // Set-up through the API: a guide with 1000 guidelines sharing a rare word (one import call).
  const token = await apiToken(request, 'admin', 'admin-demo');
  const headers = { Authorization: `Bearer ${token}` };
  const slug = unique('journey-virtual');
  const word = slug.replace(/[^a-z0-9]/g, '');
  expect((await request.post('/api/v1/guides', { headers, data: { urn: slug, title: 'Journey virtual guide' } })).ok()).toBeTruthy();
  const guidelines = Array.from({ length: 1000 }, (_, i) => ({
    guide_urn: `urn:guide:${slug}`, rule_text: `Rule ${i + 1} about ${word}.`, title: `Row ${String(i + 1).padStart(4, '0')} ${word}`, sequence_no: i + 1,
  }));
  const imported = await request.post(`/api/v1/guidelines/by-guide/urn:guide:${slug}/import`, { headers, data: { guidelines } });
  expect(imported.ok()).toBeTruthy();

  await signIn(page);
  await visit(page, `/records/guidelines?q=${word}&sort=${encodeURIComponent('sequence_no asc')}&limit=1000`);
  await expect(page.getByText('1000 found')).toBeVisible();
  const region = page.getByRole('region', { name: /1000 rows/ });
  await expect(region.getByRole('link', { name: `Row 0001 ${word}` })).toBeVisible();
  const rendered = await region.locator('tbody tr:not(.spacer)').count();
  expect(rendered).toBeLessThan(60);

  await region.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await expect(region.getByRole('link', { name: `Row 1000 ${word}` })).toBeVisible();
  expect(await region.locator('tbody tr:not(.spacer)').count()).toBeLessThan(60);

  // Clean up: the guide and its guidelines.
  await request.delete(`/api/v1/guides/urn:guide:${slug}`, { headers });
});
