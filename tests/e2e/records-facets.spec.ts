import { test, expect } from './fixtures';
import { api, apiToken, createRecord, signInCurator as signIn, goInApp as visit } from './helpers';

// Issue 39 item 1: a guideline's facets read in the console's language: the closed vocabularies
// (life stage, setting, type, audience) by label, chosen from labelled checkboxes and selects,
// the age range in months below two years and in years above; a value outside the vocabulary
// is kept as stored; an age range upside down is said before anything is sent.

test('guideline facets: labelled in the record, the form and the list; ages in months or years', async ({ page, request }) => {
  const token = await apiToken(request);
  const made = await createRecord(request, token, 'guidelines', {
    guide_urn: 'urn:guide:healthy-plates-children',
    rule_text: 'Offer iron-rich foods from six months.',
    title: 'Iron from six months',
    life_stage: ['infancy', 'early_childhood'],
    setting: ['home'],
    guideline_type: 'food_based',
    age_min_months: 6,
    age_max_months: 36,
  });
  await signIn(page);
  await visit(page, `/records/guidelines/${made.id}`);
  const fields = page.locator('dl.fields');
  await expect(fields.locator('.field-row', { hasText: 'Life stage' }).locator('.chip')).toHaveText(['Infancy', 'Early childhood']);
  await expect(fields.locator('.field-row', { hasText: 'Guideline type' }).locator('dd')).toHaveText('Food-based');
  await expect(fields.locator('.field-row', { hasText: 'Age min months' }).locator('dd')).toHaveText('6 months');
  await expect(fields.locator('.field-row', { hasText: 'Age max months' }).locator('dd')).toHaveText('3 years');

  // The form: labelled checkboxes; a tick adds the value's id, and only the changed field is sent.
  await page.getByRole('button', { name: 'Edit' }).click();
  const stages = page.getByRole('group', { name: 'Life stage' });
  await expect(stages.getByRole('checkbox', { name: 'Early childhood' })).toBeChecked();
  await expect(stages.getByRole('checkbox', { name: 'Pregnancy' })).not.toBeChecked();
  await expect(page.getByLabel('Guideline type').locator('option:checked')).toHaveText('Food-based');
  // An age range upside down is caught here.
  await page.getByLabel('Age max months').fill('3');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('.field[data-field="age_max_months"] .field-error')).toContainText('age_min_months');
  await page.getByLabel('Age max months').fill('36');
  await stages.getByRole('checkbox', { name: 'Pregnancy' }).check();
  const patch = page.waitForRequest((r) => r.method() === 'PATCH');
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await patch).postDataJSON()).toEqual({ life_stage: ['infancy', 'early_childhood', 'pregnancy'] });
  await expect(fields.locator('.field-row', { hasText: 'Life stage' }).locator('.chip')).toHaveText(['Infancy', 'Early childhood', 'Pregnancy']);
  const stored = await request.get(api(`guidelines/${made.id}`), { headers: { Authorization: `Bearer ${token}` } });
  expect((await stored.json()).result.life_stage).toEqual(['infancy', 'early_childhood', 'pregnancy']);

  // The list: a column and a search facet by label; the facet filters by the value's id.
  await visit(page, '/records/guidelines?q=iron');
  const facet = page.getByRole('region', { name: 'Filter by Life stage' });
  await facet.getByRole('button', { name: /^Early childhood/ }).click();
  await expect(page.locator('.active-filters, .filters').getByText(/early_childhood|Early childhood/).first()).toBeVisible();
  const row = page.locator('table.records tbody tr', { hasText: 'Iron from six months' });
  await expect(row).toContainText('Infancy, Early childhood, Pregnancy');

  // In Hungarian, the same values by their Hungarian labels.
  await page.evaluate(() => localStorage.setItem('larder.language', 'hu'));
  await page.goto('sign-in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await page.locator('#boot-name').fill('curator');
  await page.locator('#boot-secret').fill('curator-demo');
  await page.locator('#boot-secret').press('Enter');
  await expect(page.locator('.who')).toContainText('curator');
  await visit(page, `/records/guidelines/${made.id}`);
  await expect(page.locator('dl.fields .chip', { hasText: 'Kisgyermekkor' })).toBeVisible();
  await expect(page.locator('dl.fields dd', { hasText: '3 év' })).toBeVisible();
});

test('articles take region, language, reading visibility and indexing tier in create and edit; only what changed is sent', async ({ page, request }) => {
  const token = await apiToken(request);
  await signIn(page);
  await visit(page, '/records/articles/new');
  for (const name of ['Region', 'Language', 'Reader visibility', 'Indexing tier']) {
    await expect(page.locator('form.record-form').getByLabel(name, { exact: true })).toBeVisible();
  }
  const made = await createRecord(request, token, 'articles', {
    urn: `tiered-${Date.now()}`, title: 'A tiered article', venue: 'Tier Journal', authors: ['T. Ier'],
    content: 'Text.', region: 'EU', language: 'en',
  });
  await visit(page, `/records/articles/${made.urn}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.locator('form.record-form').getByLabel('Region', { exact: true })).toHaveValue('EU');
  await page.locator('form.record-form').getByLabel('Reader visibility', { exact: true }).selectOption('expert_only');
  await page.locator('form.record-form').getByLabel('Indexing tier', { exact: true }).selectOption('core');
  const patch = page.waitForResponse((r) => r.request().method() === 'PATCH');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const answered = await patch;
  expect(answered.ok()).toBeTruthy();
  expect(answered.request().postDataJSON()).toEqual({ reader_visibility: 'expert_only', indexing_tier: 'core' });
  const stored = (await (await request.get(api(`articles/${made.urn}`), { headers: { Authorization: `Bearer ${token}` } })).json()).result;
  expect(stored).toMatchObject({ reader_visibility: 'expert_only', indexing_tier: 'core', region: 'EU', language: 'en' });
});
