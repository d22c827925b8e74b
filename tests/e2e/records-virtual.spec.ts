import { test, expect } from './fixtures';
import { apiToken, createRecord, signInCurator as signIn, unique, goInApp as visit } from './helpers';

test('a page of 10,000 rows arrives in pages, renders only what is in view and scrolls to the end', async ({ page, request }) => {
  test.setTimeout(90_000);
  // Set-up through the API: a guide with 10,000 guidelines sharing a rare word (imports of 1000).
  const token = await apiToken(request, 'admin', 'admin-demo');
  const headers = { Authorization: `Bearer ${token}` };
  const slug = unique('journey-virtual');
  const word = slug.replace(/[^a-z0-9]/g, '');
  await createRecord(request, token, 'guides', { urn: slug, title: 'Journey virtual guide' });
  for (let start = 0; start < 10_000; start += 1000) {
    // Import items name no guide (the path does): production refuses the key.
    const guidelines = Array.from({ length: 1000 }, (_, i) => ({
      rule_text: `Rule ${start + i + 1} about ${word}.`,
      title: `Row ${String(start + i + 1).padStart(5, '0')} ${word}`, sequence_no: start + i + 1,
    }));
    const imported = await request.post(`/api/v1/guidelines/by-guide/urn:guide:${slug}/import`, { headers, data: { guidelines } });
    expect(imported.ok()).toBeTruthy();
  }

  await signIn(page);
  const searches: string[] = [];
  page.on('request', (r) => { if (r.url().endsWith('/guidelines/search')) searches.push(r.postData() ?? ''); });
  await visit(page, `/records/guidelines?q=${word}&sort=${encodeURIComponent('sequence_no asc')}&limit=10000`);
  await expect(page.getByText('10,000 found')).toBeVisible({ timeout: 30_000 });
  // The service answers at most 1000 rows at a time: ten consecutive pages.
  expect(searches.map((b) => JSON.parse(b).offset)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
  const region = page.getByRole('region', { name: /10,000 rows/ });
  await expect(region.getByRole('link', { name: `Row 00001 ${word}` })).toBeVisible();
  expect(await region.locator('tbody tr:not(.spacer)').count()).toBeLessThan(60);

  await region.evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
  await expect(region.getByRole('link', { name: new RegExp(`Row 0(49|50|51)\\d\\d ${word}`) }).first()).toBeVisible();
  await region.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await expect(region.getByRole('link', { name: `Row 10000 ${word}` })).toBeVisible();
  expect(await region.locator('tbody tr:not(.spacer)').count()).toBeLessThan(60);

  // Clean up: the guide and its guidelines.
  await request.delete(`/api/v1/guides/urn:guide:${slug}`, { headers });
});

test('a long list of bare identifiers reads only the records of the rows in view', async ({ page, request }) => {
  const token = await apiToken(request, 'admin', 'admin-demo');
  const headers = { Authorization: `Bearer ${token}` };
  const slug = unique('journey-lazy');
  await createRecord(request, token, 'guides', { urn: slug, title: 'Journey lazy guide' });
  const guidelines = Array.from({ length: 1000 }, (_, i) => ({ rule_text: `Lazy rule ${i}.`, title: `Lazy ${i}`, sequence_no: i + 1 }));
  expect((await request.post(`/api/v1/guidelines/by-guide/urn:guide:${slug}/import`, { headers, data: { guidelines } })).ok()).toBeTruthy();
  await signIn(page);
  const reads: string[] = [];
  page.on('request', (r) => { if (r.method() === 'GET' && /\/api\/v1\/guidelines\/[^/?]+$/.test(r.url())) reads.push(r.url()); });
  await visit(page, '/records/guidelines?limit=1000');
  const region = page.getByRole('region', { name: /rows, scroll to see more/ });
  await expect(region).toBeVisible();
  // Titles replace identifiers for the first screenful…
  await expect(region.locator('tbody tr:not(.spacer) td a').first()).not.toHaveText(/^[0-9a-f-]{36}$/);
  const first = reads.length;
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThan(60);
  // …and scrolling reads the next screenful only.
  await region.evaluate((el) => { el.scrollTop = 44 * 300; });
  await expect.poll(() => reads.length).toBeGreaterThan(first);
  expect(reads.length).toBeLessThan(120);
  await request.delete(`/api/v1/guides/urn:guide:${slug}`, { headers });
});
