import { test, expect } from './fixtures';
import { signIn, goInApp, screenshots, apiToken, api, production, removeHousehold } from './helpers';

// The journeys share one server: they run in this order, and each leaves noah without a household.
test.describe.configure({ mode: 'serial' });

test('an owner without a household sees the create form', async ({ page }) => {
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My household' }).click();
  await expect(page.getByRole('heading', { name: 'Create your household' })).toBeVisible();
  await screenshots(page, 'household-create');
  // Nothing typed yet: an empty name is caught before any call.
  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(page.getByRole('alert')).toContainText('Give the household a name.');

  // Typed but not saved: leaving asks first, and staying keeps what was typed.
  await page.getByLabel('Name', { exact: true }).fill('Half-typed');
  const knowledgeBase = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge base' });
  page.once('dialog', (dialog) => { expect(dialog.message()).toContain('unsaved changes'); dialog.dismiss(); });
  await knowledgeBase.click();
  await expect(page).toHaveURL(/\/household$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Half-typed');
  page.once('dialog', (dialog) => dialog.accept());
  await knowledgeBase.click();
  await expect(page).toHaveURL(/\/records\/articles/);
});

test('an owner creates a household, sets a profile, edits, deletes a member, signs out', async ({ page }) => {
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();

  await page.getByLabel('Name', { exact: true }).fill('The Oak Street household');
  await page.getByLabel('Region').fill('EU');
  await page.getByRole('button', { name: 'Add metadata' }).click();
  await page.getByLabel('Key').fill('city');
  await page.getByLabel('Value').fill('Lyon');
  await page.getByRole('button', { name: 'Add a member' }).click();
  await page.getByRole('button', { name: 'Add a member' }).click();
  await page.getByLabel('Member name').nth(0).fill('Noah');
  await page.getByLabel('Member name').nth(1).fill('Mia');
  await page.getByLabel('Age group').nth(1).selectOption('child');
  await page.getByRole('button', { name: 'Create household' }).click();

  await expect(page.getByRole('heading', { name: 'The Oak Street household' })).toBeVisible();
  await expect(page.getByText('Household The Oak Street household created')).toBeVisible();
  const members = page.locator('.member-list li');
  await expect(members).toHaveCount(2);
  await expect(members.filter({ hasText: 'Mia' })).toContainText('child');
  await expect(page.locator('.facts')).toContainText('Lyon');
  await screenshots(page, 'household');

  // Mia's profile: a dietary group found by search, and a typed preference.
  await page.getByRole('link', { name: 'Mia' }).click();
  await expect(page.getByRole('heading', { name: 'Mia' })).toBeVisible();
  await expect(page.getByText('This member has no profile yet')).toBeVisible();
  await page.getByLabel('Search dietary groups').fill('vegetarian');
  await page.getByLabel('Search dietary groups').press('Enter');
  await page.getByLabel('Search dietary groups').fill('gluten');
  await page.getByRole('button', { name: '+ gluten free' }).click();
  await page.getByLabel('Add an allergy').fill('peanuts');
  await page.getByLabel('Add an allergy').press('Enter');
  await page.getByRole('button', { name: 'Add nutritional preferences' }).click();
  await page.getByLabel('Key').fill('kcal');
  await page.getByLabel('Type').selectOption('number');
  await page.getByLabel('Value').fill('1800');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await screenshots(page, 'member');

  // Back and forth: what was saved is what the service now holds.
  await page.getByRole('link', { name: '← My household' }).click();
  await page.getByRole('link', { name: 'Mia' }).click();
  await expect(page.getByRole('list', { name: 'Chosen dietary groups' })).toContainText('vegetarian');
  await expect(page.getByRole('list', { name: 'Chosen dietary groups' })).toContainText('gluten free');
  // Saved as the allergen the meal planner matches (production.md §10.2).
  await expect(page.getByRole('checkbox', { name: 'Peanuts' })).toBeChecked();
  await expect(page.getByLabel('Key')).toHaveValue('kcal');
  await expect(page.getByLabel('Value')).toHaveValue('1800');
  await expect(page.getByLabel('Type')).toHaveValue('number');

  // Edit the household: only what changed is sent.
  await page.getByRole('link', { name: '← My household' }).click();
  await page.getByRole('button', { name: 'Edit household' }).click();
  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
  await page.getByLabel('Name', { exact: true }).fill('The Oak Street family');
  await page.getByRole('button', { name: 'Save household' }).click();
  await expect(page.getByRole('heading', { name: 'The Oak Street family' })).toBeVisible();
  expect(patches.map((p) => JSON.parse(p))).toEqual([{ name: 'The Oak Street family' }]);

  // Delete Noah the member, after confirming.
  await page.getByRole('link', { name: 'Noah' }).click();
  await page.getByRole('button', { name: 'Delete member' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Remove Noah');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete member' }).click();
  await expect(page.getByRole('heading', { name: 'The Oak Street family' })).toBeVisible();
  await expect(page.locator('.member-list li')).toHaveCount(1);

  // Delete the household (so the next journeys start from none), then sign out.
  await page.getByRole('button', { name: 'Delete household' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('The Oak Street family');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete household' }).click();
  await expect(page.getByRole('heading', { name: 'Create your household' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out$/);
});

test('a save that the service rejects keeps the form content and shows the error', async ({ page, request }) => {
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('Short-lived');
  await page.getByRole('button', { name: 'Create household' }).click();
  await page.getByRole('button', { name: 'Edit household' }).click();
  await page.getByLabel('Name', { exact: true }).fill('A name the service will not take');

  // Behind the page's back, the household goes away: the save must fail for real.
  const token = await apiToken(request, 'noah', 'noah-demo');
  const own = await request.get(api('households/me'), { headers: { Authorization: `Bearer ${token}` } });
  const id = (await own.json()).result.id;
  expect((await request.delete(api(`households/${id}`), { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

  await page.getByRole('button', { name: 'Save household' }).click();
  await expect(page.locator('form .error[role=alert]')).toContainText(/not found/i);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('A name the service will not take');
});

test('a household keeps the spaces its name was given, and an edit leaves them unless the name changes', async ({ page, request }) => {
  // Production's household models strip nothing: spaces are kept and counted (the reference
  // service must refuse and keep what production does, so this runs against both and against
  // production's own households service).
  const headers = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
  const created = await request.post(api('households'), {
    headers, data: {
      name: '  Oak Street  ', region: ' EU ', members: [{ name: ' Ana ', age_group: 'adult' }],
      // Metadata the key/value rows must give back as stored: a key with a space, a list that
      // commas would not give back.
      metadata: { ' note': 'kept', tags: [' a', ''] },
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const id = (await created.json()).result.id;
  const stored = async () => (await (await request.get(api('households/me'), { headers })).json()).result;
  const before = await stored();
  expect([before.name, before.region, before.members[0].name]).toEqual(['  Oak Street  ', ' EU ', ' Ana ']);
  const tooLong = await request.patch(api(`households/${id}`), { headers, data: { name: `${'a'.repeat(255)} ` } });
  expect(tooLong.status()).toBe(422);

  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
  // Opened and saved untouched: nothing is sent, nothing renamed.
  await page.getByRole('button', { name: 'Edit household' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('  Oak Street  ');
  await page.getByRole('button', { name: 'Save household' }).click();
  await expect(page.getByRole('button', { name: 'Edit household' })).toBeVisible();
  // Only the region changed: the name, spaces and all, is not sent.
  await page.getByRole('button', { name: 'Edit household' }).click();
  await page.getByLabel('Region').fill('FR');
  await page.getByRole('button', { name: 'Save household' }).click();
  await expect(page.getByText('Household saved')).toBeVisible();
  expect(patches.map((body) => JSON.parse(body))).toEqual([{ region: 'FR' }]);
  const after = await stored();
  expect([after.name, after.region, after.members[0].name]).toEqual(['  Oak Street  ', 'FR', ' Ana ']);
  expect(after.metadata).toEqual(before.metadata);
  await removeHousehold(request, 'noah', 'noah-demo');
});

test('an administrator pages through every household and opens one', async ({ page }) => {
  await signIn(page, 'admin', 'admin-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Households' }).click();
  await expect(page.getByRole('heading', { name: 'Households' })).toBeVisible();
  if (production) {
    // Production lists only the households the administrator owns (none here).
    await expect(page.getByText('No households on this page.')).toBeVisible();
    return;
  }
  await page.getByLabel('Per page').selectOption('10');
  await expect(page).toHaveURL(/limit=10&offset=0/);
  const rows = page.locator('table.records tbody tr');
  await expect(rows).toHaveCount(10);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/limit=10&offset=10/);
  await expect(rows).toHaveCount(10);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/limit=10&offset=20/);
  expect(await rows.count()).toBeGreaterThan(0);
  await screenshots(page, 'households');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/limit=10&offset=10/);

  await goInApp(page, '/households?limit=100&offset=0');
  await page.getByRole('link', { name: 'The Parkers' }).click();
  await expect(page.getByRole('heading', { name: 'Members (3)' })).toBeVisible();
  await expect(page.locator('.member-list li')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Edit household' })).toBeVisible();
  await screenshots(page, 'household-admin-view');
});
