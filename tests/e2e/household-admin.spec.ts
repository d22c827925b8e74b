import { test, expect } from './fixtures';
import { signIn, goInApp, screenshots, householdFor, removeHousehold, api, apiToken, typeCredentials, userName } from './helpers';

// Households as administrators and owners use them beyond the basics: any household edited by an
// administrator, fields cleared, profiles deleted and their properties edited, forms that keep
// their own unsaved state, every member of a large household, deep links, and a phone's header.
// They use noah's household (created and removed here), so they run in order.
test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => { await removeHousehold(request, 'noah', 'noah-demo'); });
test.afterAll(async ({ request }) => { await removeHousehold(request, 'noah', 'noah-demo'); });

test('a cold link to an administrator page signs in and lands on it, query and all', async ({ page }) => {
  await page.goto('households?limit=10&offset=10');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fhouseholds%3Flimit%3D10%26offset%3D10$/);
  await typeCredentials(page, 'admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/households\?limit=10&offset=10$/);
  await expect(page.getByRole('heading', { name: 'Households', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Per page')).toHaveValue('10');
  // Production's list is the administrator's own households: the page says so.
  await expect(page.getByText('Production lists only the households the administrator owns, so there this list shows those alone.')).toBeVisible();
});

test('someone without the role sees "Not allowed" and which role the page needs', async ({ page }) => {
  await signIn(page, 'olivia', 'olivia-demo');
  await expect(page.getByRole('link', { name: 'Households' })).toHaveCount(0);
  await goInApp(page, '/households');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('This page needs the role admin.');
  await expect(page.getByRole('alert')).toContainText(`signed in as ${userName('olivia')}`);
  await expect(page.locator('table.records')).toHaveCount(0);
  await goInApp(page, '/households/any-id');
  await expect(page.getByRole('alert')).toContainText('the role admin or agent');
  // Still signed in.
  await expect(page.locator('.who')).toContainText(`Signed in as ${userName('olivia')}`);
});

test('an administrator edits another person\'s household, a member and a profile, and deletes a member', async ({ page, request }) => {
  const id = await householdFor(request, 'noah', 'noah-demo', { name: "Noah's place", region: 'EU', members: 2 });
  await signIn(page, 'admin', 'admin-demo');
  await goInApp(page, `/households/${id}`);
  await expect(page.getByRole('heading', { name: "Noah's place", level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Members (2)' })).toBeVisible();

  // Rename, and clear the region: the PATCH carries null for it, and the page shows no region.
  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
  await page.getByRole('button', { name: 'Edit household' }).click();
  await page.getByLabel('Name', { exact: true }).fill("Noah's house");
  await page.getByLabel('Region').fill('');
  await page.getByRole('button', { name: 'Save household' }).click();
  await expect(page.getByRole('heading', { name: "Noah's house", level: 1 })).toBeVisible();
  expect(patches.map((p) => JSON.parse(p))).toEqual([{ name: "Noah's house", region: null }]);
  await expect(page.locator('.facts dd').nth(1)).toHaveText('—');
  await screenshots(page, 'household-admin-edit');

  // A member: picture set, then cleared; a profile with properties.
  await page.getByRole('link', { name: 'Member 001' }).click();
  await expect(page.getByRole('link', { name: '← The household' })).toBeVisible();
  await page.getByLabel('Image URL').fill('https://img.example/noah.png');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Member 001 saved')).toBeVisible();
  patches.length = 0;
  await page.getByLabel('Image URL').fill('');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect.poll(() => patches.map((p) => JSON.parse(p))).toEqual([{ image_url: null }]);
  await expect(page.locator('img.avatar')).toHaveCount(0);

  await page.getByLabel('Search dietary groups').fill('vegan');
  await page.getByLabel('Search dietary groups').press('Enter');
  await page.getByRole('button', { name: 'Add properties' }).click();
  await page.getByLabel('Key').fill('source');
  await page.getByLabel('Value').fill('clinic');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  const headers = { Authorization: `Bearer ${await apiToken(request, 'admin', 'admin-demo')}` };
  const members = (await (await request.get(api(`members?household_id=${id}`), { headers })).json()).result;
  const member = members.find((m: { name: string }) => m.name === 'Member 001');
  const profile = (await (await request.get(api(`members/${member.id}/profile`), { headers })).json()).result;
  expect(profile.dietary_groups).toEqual(['vegan']);
  // The service ignores properties when it creates a profile: the console sent them right after.
  expect(profile.properties).toEqual({ source: 'clinic' });
  await screenshots(page, 'member-admin-edit');

  // Delete the member, after confirming: back on the household, one member left.
  await page.getByRole('button', { name: 'Delete member' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete member' }).click();
  await expect(page.getByRole('heading', { name: 'Members (1)' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/households/${id}$`));

  // And the household itself, back to the list.
  await page.getByRole('button', { name: 'Delete household' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete household' }).click();
  await expect(page).toHaveURL(/\/households$/);
});

test('a profile is deleted, its properties edited, and saving details keeps a pending profile edit', async ({ page, request }) => {
  await householdFor(request, 'noah', 'noah-demo', { name: 'Profiles', members: 1 });
  await signIn(page, 'noah', 'noah-demo');
  await goInApp(page, '/household');
  await page.getByRole('link', { name: 'Member 001' }).click();
  await expect(page.getByRole('heading', { name: 'Member 001', level: 1 })).toBeVisible();

  // Behind the page's back, the member gets a profile: saving from the page must still work
  // (POST creates or updates), not fail as a duplicate.
  const headers = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
  const memberId = page.url().split('/').pop()!;
  expect((await request.post(api(`members/${memberId}/profile`), { headers, data: { dietary_groups: ['halal'] } })).ok()).toBeTruthy();

  // A profile edit pending while the details are saved survives the save.
  await page.getByLabel('Add an allergy').fill('sesame');
  await page.getByLabel('Add an allergy').press('Enter');
  await page.getByLabel('Name', { exact: true }).fill('Noah');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByRole('heading', { name: 'Noah', level: 1 })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Sesame seeds' })).toBeChecked();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  const saved = (await (await request.get(api(`members/${memberId}/profile`), { headers })).json()).result;
  expect(saved.allergies).toEqual(['sesame']);

  // Properties of an existing profile: replaced as a whole by a PATCH.
  await page.getByRole('button', { name: 'Add properties' }).click();
  await page.getByLabel('Key').last().fill('note');
  await page.getByLabel('Value').last().fill('from the clinic');
  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH' && r.url().endsWith('/profile')) patches.push(r.postData() ?? ''); });
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect.poll(() => patches.map((p) => JSON.parse(p))).toEqual([{ properties: { note: 'from the clinic' } }]);

  // Delete the profile, after confirming: the member stays, the form is empty again.
  await page.getByRole('button', { name: 'Delete profile' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('The member stays');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete profile' }).click();
  await expect(page.getByText('This member has no profile yet')).toBeVisible();
  expect((await request.get(api(`members/${memberId}/profile`), { headers })).status()).toBe(404);
});

test('a household of 130 members is listed in full, for its owner and for an administrator', async ({ page, request }) => {
  test.setTimeout(120_000);
  const id = await householdFor(request, 'noah', 'noah-demo', { name: 'A big family', members: 130 });
  await signIn(page, 'noah', 'noah-demo');
  await goInApp(page, '/household');
  await expect(page.getByRole('heading', { name: 'Members (130)' })).toBeVisible();
  await expect(page.locator('.member-list li')).toHaveCount(130);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, 'admin', 'admin-demo');
  await goInApp(page, `/households/${id}`);
  await expect(page.getByRole('heading', { name: 'Members (130)' })).toBeVisible();
  await expect(page.locator('.member-list li')).toHaveCount(130);
  await expect(page.locator('.member-list')).toContainText('Member 130');
});

test('on a phone the header folds into a menu and every page\'s title is in the first screen', async ({ page, request }) => {
  await householdFor(request, 'noah', 'noah-demo', { name: 'Small screen', members: 1 });
  await signIn(page, 'admin', 'admin-demo');
  await page.setViewportSize({ width: 390, height: 844 });
  // Each page's own title (a page comes from its module: the one before stays until it is here).
  const pages: [string, string | RegExp][] = [['/', /^Welcome, /], ['/households', 'Households'], ['/records/articles', 'Articles'],
    // The guide's title, or (on a service without that guide) the page's error: not the list's.
    ['/records/guides/urn:guide:eat-well-2024', /^(?!Articles$)./]];
  for (const [path, title] of pages) {
    await goInApp(page, path);
    const heading = page.getByRole('heading', { level: 1, name: title });
    await expect(heading).toBeVisible();
    const box = await heading.boundingBox();
    expect(box, 'the page has a title').not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    expect(box!.y).toBeLessThan(200);
  }
  await page.screenshot({ path: 'target/playwright/screens/header-390.png' });
  // The menu: a button that says whether it is open; the account and links inside.
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: 'target/playwright/screens/header-menu-390.png' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Households' }).click();
  await expect(page.getByRole('heading', { name: 'Households', level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  // Keyboard: the menu opens with Enter and closes with Escape.
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  await menu.click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out$/);
});
