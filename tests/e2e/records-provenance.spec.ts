import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { api, apiToken, createRecord, parseCsv, signInCurator as signIn, goInApp as visit } from './helpers';

// Issue 39 item 2: the values a machine wrote (`ai_generated_fields`) carry an "AI" mark, with
// the agent and run on hover and focus, in the record, the list and the history; a curator's
// edit takes a field over (production's ownership rule), and its mark goes.

test('machine-written values are marked AI with their agent and run, in the list, the record and the history', async ({ page }) => {
  await signIn(page);
  // The demo's Mediterranean guidelines: life stage, nutrients and type written by demo-enricher.
  await visit(page, '/records/guidelines?q=olive');
  const row = page.locator('table.records tbody tr', { hasText: 'Use olive oil as the main added fat' });
  const mark = row.locator('.ai-mark');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAttribute('title', /^Written by the demo-enricher agent \(run [0-9a-f-]+\)/);
  await row.getByRole('link', { name: 'Use olive oil as the main added fat' }).click();

  const fields = page.locator('dl.fields');
  const stage = fields.locator('.field-row', { hasText: 'Life stage' });
  const badge = stage.getByRole('img', { name: /demo-enricher/ });
  await badge.focus();
  await expect(badge).toBeFocused();
  await expect(fields.locator('.field-row', { hasText: 'Nutrients' }).locator('.ai-mark')).toHaveCount(1);
  await expect(fields.locator('.field-row', { hasText: 'Rule text' }).locator('.ai-mark')).toHaveCount(0);

  await page.getByRole('tab', { name: 'History' }).click();
  const written = page.locator('.history-fields th', { hasText: 'Life stage' });
  await expect(written.locator('.ai-mark')).toHaveCount(1);
});

test('the export keeps the marks: its AI-generated column names each machine-written field with its agent and run', async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/guidelines?q=olive');
  await expect(page.locator('table.records tbody tr', { hasText: 'Use olive oil as the main added fat' })).toBeVisible();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Export' });
  const [csv] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
  const table = parseCsv(readFileSync((await csv.path())!).toString('utf8'));
  const ai = table[0].indexOf('AI-generated');
  // Just before the fields the contract does not know.
  expect(ai).toBe(table[0].length - 2);
  const title = table[0].indexOf('Title');
  const olive = table.find((cells) => cells[title] === 'Use olive oil as the main added fat');
  expect(olive, 'the olive oil guideline is among the exported rows').toBeTruthy();
  const written = olive![ai].split('; ');
  expect(written).toContainEqual(expect.stringMatching(/^life_stage \(demo-enricher, run [0-9a-f-]+\)$/));
  expect(written).toContainEqual(expect.stringMatching(/^nutrients \(demo-enricher, run [0-9a-f-]+\)$/));
  expect(written.some((cell) => cell.startsWith('rule_text'))).toBe(false);
});

test('a curator\'s edit takes a machine-written field over: its mark goes, the others stay', async ({ page, request }) => {
  const token = await apiToken(request);
  const made = await createRecord(request, token, 'guidelines', {
    guide_urn: 'urn:guide:healthy-plates-children',
    rule_text: 'Offer water with every meal.',
    title: 'Water with meals',
    life_stage: ['early_childhood'],
    nutrients: ['water'],
    ai_generated_fields: ['life_stage', 'nutrients'],
  });
  await signIn(page);
  await visit(page, `/records/guidelines/${made.id}`);
  const fields = page.locator('dl.fields');
  const stage = fields.locator('.field-row', { hasText: 'Life stage' });
  await expect(stage.getByRole('img', { name: /^Written by a machine/ })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('group', { name: 'Life stage' }).getByRole('checkbox', { name: 'School age' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(stage.locator('.chip')).toHaveText(['Early childhood', 'School age']);
  await expect(stage.locator('.ai-mark')).toHaveCount(0);
  await expect(fields.locator('.field-row', { hasText: 'Nutrients' }).locator('.ai-mark')).toHaveCount(1);
  const stored = (await (await request.get(api(`guidelines/${made.id}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  expect(stored.ai_generated_fields).toEqual(['nutrients']);
});
