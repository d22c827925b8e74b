import { test, expect } from './fixtures';
import { api, apiToken, createRecord, signIn, signInCurator, goInApp as visit, scan } from './helpers';

// Issue 39 item 3: an administrator's editorial policy over chosen guidelines: previewed by a
// dry run, asked once more, and reported in the service's own numbers.

test('an editorial policy is previewed, confirmed and reported as the service counted it', async ({ page, request }) => {
  const token = await apiToken(request, 'admin', 'admin-demo');
  const tag = `editorial${Date.now().toString(36)}`;
  const made = [];
  for (const n of [1, 2]) {
    made.push(await createRecord(request, token, 'guidelines', {
      guide_urn: 'urn:guide:healthy-plates-children', rule_text: `Rule ${n} of ${tag}.`, title: `Rule ${n} ${tag}`,
    }));
  }
  await signIn(page, 'admin', 'admin-demo');
  await visit(page, `/records/guidelines?q=${tag}&limit=25`);
  await expect(page.locator('p.total')).toHaveText('2 found');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Editorial policy for 2 selected' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Applicability status').selectOption('superseded');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('editorial-preview')).toContainText('2 records match.');
  // Nothing written by the preview.
  for (const g of made) {
    const read = (await (await request.get(api(`guidelines/${g.id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
    expect(read.applicability_status).not.toBe('superseded');
  }
  await scan(page, 'the editorial policy preview');
  await dialog.getByRole('button', { name: 'Apply to 2 records' }).click();
  await dialog.getByRole('button', { name: 'Yes, apply' }).click();
  await expect(dialog.getByTestId('editorial-report')).toContainText('Updated 2 of 2.');
  for (const g of made) {
    const read = (await (await request.get(api(`guidelines/${g.id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
    expect(read.applicability_status).toBe('superseded');
  }
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('a curator is not offered the editorial policy', async ({ page }) => {
  await signInCurator(page);
  await visit(page, '/records/guidelines?q=olive&limit=25');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(page.locator('.selected-count')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Editorial policy/ })).toHaveCount(0);
});

test('chosen guidelines are enriched in batches after a dry run; a curator\'s value is kept unless overwritten', async ({ page, request }) => {
  const token = await apiToken(request);
  const tag = `enrich${Date.now().toString(36)}`;
  const plain = await createRecord(request, token, 'guidelines', {
    guide_urn: 'urn:guide:healthy-plates-children', rule_text: `Plain rule of ${tag}.`, title: `Plain ${tag}`,
  });
  const owned = await createRecord(request, token, 'guidelines', {
    guide_urn: 'urn:guide:healthy-plates-children', rule_text: `Owned rule of ${tag}.`, title: `Owned ${tag}`,
    life_stage: ['adulthood'],
  });
  await signInCurator(page);
  await visit(page, `/records/guidelines?q=${tag}&limit=25`);
  await expect(page.locator('p.total')).toHaveText('2 found');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Enrich 2 selected' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('group', { name: 'Life stage' }).getByRole('checkbox', { name: 'Adolescence' }).check();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByTestId('enrich-preview');
  await expect(preview).toContainText('2 of 2 would be enriched.');
  await expect(preview).toContainText('1 value kept where a curator set it.');
  await scan(page, 'the enrichment preview');
  await dialog.getByRole('button', { name: 'Enrich 2 guidelines' }).click();
  await dialog.getByRole('button', { name: 'Yes, apply' }).click();
  await expect(dialog.getByTestId('enrich-report')).toContainText('Enriched 2 of 2.');
  const read = async (id: string) => (await (await request.get(api(`guidelines/${id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  const enriched = await read(plain.id);
  expect(enriched.life_stage).toEqual(['adolescence']);
  expect(enriched.ai_generated_fields).toContain('life_stage');
  expect((await read(owned.id)).life_stage).toEqual(['adulthood']);
});
