import { APIRequestContext } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, goInApp, production, removeHousehold, scan, signIn } from './helpers';

// Issue 38, item 3: the allergy audit for administrators. Across every household the
// administrator can list, the members whose allergies the meal planner cannot enforce as stored,
// and "Use the standard allergen" after a look at the change. The administrator's own household
// and demo accounts family17 and family18 (larder-server's wires): on the production wire the
// list holds only the administrator's own households, as production's does, and so does the audit.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'family-demo';

async function memberWithAllergies(request: APIRequestContext, user: string, name: string, allergies: string[], password = PASSWORD) {
  const headers = { Authorization: `Bearer ${await apiToken(request, user, password)}` };
  await removeHousehold(request, user, password);
  const created = await request.post(api('households'), { headers, data: { name: `${user} audit home` } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const household = (await created.json()).result.id;
  const member = await request.post(api('members'), { headers, data: { household_id: household, name, age_group: 'adult' } });
  expect(member.ok(), await member.text()).toBeTruthy();
  const id = (await member.json()).result.id as string;
  const profile = await request.post(api(`members/${id}/profile`), { headers, data: { allergies } });
  expect(profile.ok(), await profile.text()).toBeTruthy();
  return { id, headers };
}

test('the allergy audit finds what the planner cannot enforce, three households at a time, and standardises after showing the change', async ({ page, request }) => {
  const ann = await memberWithAllergies(request, 'admin', 'Audit Ann', ['Dairy', 'kiwi', 'shellfish'], 'admin-demo');
  await memberWithAllergies(request, 'family17', 'Other Olga', ['nuts']);
  await memberWithAllergies(request, 'family18', 'Clean Carl', ['milk', 'egg']);

  // How many API requests are in flight at once while the audit runs.
  let inFlight = 0;
  let most = 0;
  const api_ = (url: string) => url.includes('/api/v1/') && !url.endsWith('/system/login');
  page.on('request', (r) => { if (api_(r.url())) { inFlight += 1; most = Math.max(most, inFlight); } });
  const done = (r: { url(): string }) => { if (api_(r.url())) inFlight -= 1; };
  page.on('requestfinished', done);
  page.on('requestfailed', done);

  await signIn(page, 'admin', 'admin-demo');
  await goInApp(page, '/households');
  await page.getByRole('link', { name: 'Allergy audit' }).click();
  await expect(page.getByRole('heading', { name: 'Allergy audit', level: 1 })).toBeVisible();
  await expect(page.getByText('Production lists only the households the administrator owns')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Checked (\d+) of \1 households/ })).toBeVisible({ timeout: 20_000 });
  expect(most, 'the audit keeps within the service\'s three connections').toBeLessThanOrEqual(3);

  const row = page.getByRole('row').filter({ hasText: 'Audit Ann' });
  await expect(row).toContainText('“Dairy”: stored under another name; the standard is Milk (milk)');
  await expect(row).toContainText('“shellfish”: stored under another name; the standard is Crustaceans, Molluscs (crustacean_shellfish, molluscs)');
  await expect(row).toContainText('“kiwi”: not a standard allergen; the meal planner may not recognise it');
  await expect(page.getByRole('row').filter({ hasText: 'Clean Carl' })).toHaveCount(0);
  // Someone else's household: listed where the service lists it, absent where it lists only the
  // administrator's own (production), which the page has said.
  await expect(page.getByRole('row').filter({ hasText: 'Other Olga' })).toHaveCount(production ? 0 : 1);
  await scan(page, 'the allergy audit');

  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
  await row.getByRole('button', { name: 'Use the standard allergen for Audit Ann' }).click();
  await expect(row).toContainText('Now: Dairy, kiwi, shellfish');
  await expect(row).toContainText('After: milk, kiwi, crustacean_shellfish, molluscs');
  expect(patches, 'nothing is saved before a look').toEqual([]);
  await row.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Audit Ann: standard allergens saved')).toBeVisible();
  expect(patches.map((p) => JSON.parse(p))).toEqual([{ allergies: ['milk', 'kiwi', 'crustacean_shellfish', 'molluscs'] }]);
  const saved = (await (await request.get(api(`members/${ann.id}/profile`), { headers: ann.headers })).json()).result;
  expect(saved.allergies).toEqual(['milk', 'kiwi', 'crustacean_shellfish', 'molluscs']);
  // What has no standard stays, said as before; there is nothing left to standardise.
  await expect(row).toContainText('“kiwi”: not a standard allergen');
  await expect(row).not.toContainText('Dairy');
  await expect(row.getByRole('button', { name: /Use the standard allergen/ })).toHaveCount(0);

  // The member is one click away.
  await row.getByRole('link', { name: 'Audit Ann' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Ann', level: 1 })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Milk' })).toBeChecked();
  await removeHousehold(request, 'admin', 'admin-demo');
});

test('the audit is for administrators', async ({ page }) => {
  await signIn(page, 'family17', PASSWORD);
  await goInApp(page, '/households/allergies');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
});
