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
  // Counted again by the service: the selection narrowed to what carries the change.
  await expect(dialog.getByTestId('editorial-reread')).toHaveText('Read again from the service: 2 of the selection now carry the change.');
  for (const g of made) {
    const read = (await (await request.get(api(`guidelines/${g.id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
    expect(read.applicability_status).toBe('superseded');
  }
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('a policy the service refuses in part reports each refused row with its reason and leaves the rest applied', async ({ page, request }) => {
  const token = await apiToken(request, 'admin', 'admin-demo');
  const tag = `partial${Date.now().toString(36)}`;
  // Two rules of an active guide (whose guidelines must stay active and verified) and one of a
  // draft guide: taking "verified" away is refused for the first two by the service's own rule.
  const active = [];
  for (const n of [1, 2]) {
    active.push(await createRecord(request, token, 'guidelines', {
      guide_urn: 'urn:guide:healthy-plates-children', rule_text: `Rule ${n} of ${tag}.`, title: `Rule ${n} ${tag}`,
    }));
  }
  await createRecord(request, token, 'guides', { urn: tag, title: `Guide ${tag}`, status: 'draft' });
  const free = await createRecord(request, token, 'guidelines', {
    guide_urn: `urn:guide:${tag}`, rule_text: `Free rule of ${tag}.`, title: `Free ${tag}`,
  });
  await signIn(page, 'admin', 'admin-demo');
  await visit(page, `/records/guidelines?q=${tag}&limit=25`);
  await expect(page.locator('p.total')).toHaveText('3 found');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Editorial policy for 3 selected' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Review status').selectOption('unreviewed');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('editorial-preview')).toContainText('3 records match.');
  await dialog.getByRole('button', { name: 'Apply to 3 records' }).click();
  await dialog.getByRole('button', { name: 'Yes, apply' }).click();
  const report = dialog.getByTestId('editorial-report');
  await expect(report).toContainText('Updated 1 of 3.');
  await expect(report).toContainText('2 refused:');
  // Each refused row by its title, with the service's reason in its words.
  const refused = report.locator('ul.refused li');
  await expect(refused).toHaveCount(2);
  for (const n of [1, 2]) {
    await expect(refused.filter({ hasText: `Rule ${n} ${tag}: ` })).toContainText('A guideline of an active guide must be active and verified.');
  }
  await expect(dialog.getByTestId('editorial-reread')).toHaveText(/^Read again from the service: 1 of the selection now carr/);
  await scan(page, 'an editorial policy refused in part');
  const read = async (id: string) => (await (await request.get(api(`guidelines/${id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  expect((await read(free.id)).review_status).toBe('unreviewed');
  for (const g of active) expect((await read(g.id)).review_status).toBe('verified');
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
  // Read again: the curator's own value stayed, so one of the two carries what was sent.
  await expect(dialog.getByTestId('enrich-reread')).toHaveText('Read again from the service: 1 of 2 carry every value sent.');
  const read = async (id: string) => (await (await request.get(api(`guidelines/${id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  const enriched = await read(plain.id);
  expect(enriched.life_stage).toEqual(['adolescence']);
  expect(enriched.ai_generated_fields).toContain('life_stage');
  expect((await read(owned.id)).life_stage).toEqual(['adulthood']);
});

test('chosen guidelines are backfilled by their guides after a dry run, and the coverage is read again', async ({ page, request }) => {
  const token = await apiToken(request, 'admin', 'admin-demo');
  const auth = { Authorization: `Bearer ${token}` };
  const tag = `backfill${Date.now().toString(36)}`;
  await createRecord(request, token, 'guides', { urn: tag, title: `Guide ${tag}`, status: 'draft' });
  const guideUrn = `urn:guide:${tag}`;
  for (const n of [1, 2, 3]) {
    await createRecord(request, token, 'guidelines', { guide_urn: guideUrn, rule_text: `Rule ${n} of ${tag}.`, title: `Rule ${n} ${tag}` });
  }
  const dryRun = async () => (await (await request.post(
    api(`guidelines/embeddings/backfill?guide_urn=${encodeURIComponent(guideUrn)}&dry_run=true`), { headers: auth })).json()).result;
  const expected = await dryRun();
  expect(expected.queued).toBe(3);

  await signIn(page, 'admin', 'admin-demo');
  await visit(page, `/records/guidelines?q=${tag}&limit=25`);
  await expect(page.locator('p.total')).toHaveText('3 found');
  await page.getByRole('checkbox', { name: `Select Rule 1 ${tag}` }).check();
  await page.getByRole('checkbox', { name: `Select Rule 2 ${tag}` }).check();
  await page.getByRole('button', { name: 'Backfill embeddings for 2 selected' }).click();
  const dialog = page.getByRole('dialog');
  // The service backfills whole guides: the dialog says which, and that the third is covered too.
  await expect(dialog.getByTestId('backfill-scope')).toContainText('Chosen guidelines: 2. They belong to 1 guide');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('backfill-preview')).toContainText(`${expected.queued} of ${expected.scanned} would be queued`);
  expect((await dryRun()).queued, 'the preview wrote nothing').toBe(3);
  await scan(page, 'the backfill preview');
  await dialog.getByRole('button', { name: 'Backfill 3 guidelines' }).click();
  await dialog.getByRole('button', { name: 'Yes, apply' }).click();
  await expect(dialog.getByTestId('backfill-report')).toContainText(`Queued 3 of ${expected.scanned}`);
  // The coverage the dialog shows is the service's, read after the apply.
  const reread = dialog.getByTestId('backfill-reread');
  await expect(reread).toContainText('Read again from the service:');
  const coverage = (await (await request.get(api('system/embeddings'), { headers: auth })).json()).result.indices
    .find((r: { index: string }) => r.index === 'guidelines');
  await expect(reread).toContainText(`${coverage.embedded} of ${coverage.total} guidelines have an embedding, ${coverage.missing} are missing one.`);
  expect((await dryRun()).queued, 'nothing of the guide is left to queue').toBe(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('a curator is not offered the embeddings backfill', async ({ page }) => {
  await signInCurator(page);
  await visit(page, '/records/guidelines?q=olive&limit=25');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(page.locator('.selected-count')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Backfill embeddings/ })).toHaveCount(0);
});
