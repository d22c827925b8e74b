import { APIRequestContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { api, apiToken, goInApp, realprod, removeHousehold, scan, signIn } from './helpers';

// Issue 38, items 4 to 6: a member's meal plans for the week (production.md §10.3), revoked for
// one member or everyone after asking, a revoke or an addition production refuses shown in its
// own words; the member's library where the service offers it; and "Download my data" reading
// the plans day by day. Against both larder-server wires and production's own households
// service (which has the meal plans and none of the library): noah's household (alice's there),
// made afresh for each journey.
test.describe.configure({ mode: 'serial' });
// The service's today is UTC's; the page's week starts on the browser's today.
test.use({ timezoneId: 'UTC' });

const OWNER = 'noah';
const PASSWORD = 'noah-demo';

/** `offset` days from today (UTC), `YYYY-MM-DD`. */
function day(offset = 0) {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

async function headers(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request, OWNER, PASSWORD)}` };
}

/** A fresh household of Ann, Ben and Cid: their ids by name. */
async function household(request: APIRequestContext) {
  await removeHousehold(request, OWNER, PASSWORD);
  const h = await headers(request);
  const members = ['Ann', 'Ben', 'Cid'].map((name) => ({ name, age_group: 'adult' }));
  const created = await request.post(api('households'), { headers: h, data: { name: 'Planned', members } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const id = (await created.json()).result.id;
  const listed = (await (await request.get(api(`members?household_id=${id}`), { headers: h })).json()).result;
  return Object.fromEntries(listed.map((m: { name: string; id: string }) => [m.name, m.id])) as Record<string, string>;
}

const meal = (title: string, ingredients = '80 g oats\n250 ml milk') =>
  ({ recipe_id: `rw-${title.length}`, title, ingredients, directions: 'Simmer 5 minutes.\nServe warm.' });

/** A plan of three dishes named after `label`. */
const plan = (label: string) => ({
  id: `fc-${label}`, breakfast: meal(`${label} porridge`), lunch: meal(`${label} soup`, '1 carrot\n1 onion'), dinner: meal(`${label} stew`),
  reasoning: `Planned for ${label}.`,
});

/** Stores `label`'s plan for `member` (and `others`) on `date`; the plan as answered. */
async function store(request: APIRequestContext, member: string, label: string, others: string[] = [], date = day()) {
  const answer = await request.post(api(`members/${member}/meal-plans`), {
    headers: await headers(request), data: { date, applies_to_member_ids: others, meal_plan: plan(label) },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()).result;
}

async function planOf(request: APIRequestContext, member: string, date = day()) {
  return request.get(api(`members/${member}/meal-plans?date=${date}`), { headers: await headers(request) });
}

async function openMember(page: Page, id: string) {
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, `/household/members/${id}`);
  await expect(page.getByRole('heading', { name: 'Meal plans', exact: true })).toBeVisible();
}

const today = (page: Page) => page.locator(`.plan-day[data-day="${day()}"]`);

test.afterAll(async ({ request }) => { await removeHousehold(request, OWNER, PASSWORD); });

test('meal plans: the week shows each day\'s plan or none, the recipe on demand, and who else it is for', async ({ page, request }) => {
  const m = await household(request);
  await store(request, m.Ann, 'Monday', [m.Ben]);
  await store(request, m.Ann, 'Tuesday', [], day(1));
  await openMember(page, m.Ann);
  await expect(page.locator('.plan-day')).toHaveCount(7);
  await expect(page.getByText('No meal plan for this day')).toHaveCount(5);
  await expect(today(page).locator('.meal-title')).toHaveText(['Monday porridge', 'Monday soup', 'Monday stew']);
  await expect(today(page)).toContainText('Also for: Ben');
  await expect(today(page)).toContainText('Planned for Monday.');
  await expect(page.locator(`.plan-day[data-day="${day(1)}"] .meal-title`).first()).toHaveText('Tuesday porridge');
  await expect(page.locator(`.plan-day[data-day="${day(1)}"] .also-for`)).toHaveCount(0);
  // The recipe is there on demand, and the keyboard opens it.
  const lunch = today(page).locator('.meal').nth(1);
  await expect(lunch.getByText('1 carrot')).toBeHidden();
  await lunch.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(lunch.getByRole('listitem')).toHaveText(['1 carrot', '1 onion']);
  await expect(lunch.getByText('Serve warm.')).toBeVisible();
  await scan(page, 'a member\'s meal plans with a recipe open');
});

test('meal plans: revoked for this member, then for everyone, each after a confirmation', async ({ page, request }) => {
  const m = await household(request);
  const stored = await store(request, m.Ann, 'Shared', [m.Ben, m.Cid]);
  await openMember(page, m.Ann);
  await expect(today(page)).toContainText(/Also for: (Ben, Cid|Cid, Ben)/);
  await today(page).getByRole('button', { name: 'Revoke for this member' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('for Ann? The other members keep it.');
  await scan(page, 'the revoke confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(today(page).locator('.meal-title').first()).toHaveText('Shared porridge');
  expect((await (await planOf(request, m.Ann)).json()).result.id, 'nothing revoked on Cancel').toBe(stored.id);

  await today(page).getByRole('button', { name: 'Revoke for this member' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke for this member' }).click();
  await expect(page.getByText('Meal plan revoked for Ann')).toBeVisible();
  await expect(today(page)).toContainText('No meal plan for this day');
  expect((await planOf(request, m.Ann)).status()).toBe(404);
  const bens = (await (await planOf(request, m.Ben)).json()).result;
  expect(bens.applies_to_member_ids.sort()).toEqual([m.Ben, m.Cid].sort());

  await goInApp(page, `/household/members/${m.Ben}`);
  await expect(today(page)).toContainText('Also for: Cid');
  await today(page).getByRole('button', { name: 'Revoke for everyone' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('for everyone it is for: Ben and Cid?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke for everyone' }).click();
  await expect(page.getByText('Meal plan revoked for everyone')).toBeVisible();
  await expect(today(page)).toContainText('No meal plan for this day');
  expect((await planOf(request, m.Cid)).status()).toBe(404);
});

/** Ann's plan `label` for today, shared from her page: the link shown, or `null` where the
 * service has no share links (production's households service, issue 41: the page says so). */
async function shareTodaysPlan(page: Page, request: APIRequestContext, label: string) {
  const m = await household(request);
  await store(request, m.Ann, label);
  await openMember(page, m.Ann);
  await today(page).getByRole('button', { name: 'Share this meal plan' }).click();
  if (realprod) {
    await expect(today(page).getByText('The service does not offer share links.')).toBeVisible();
    return null;
  }
  const link = today(page).getByTestId('shared-plan-link');
  await expect(link).toBeVisible();
  return link;
}

test('a meal plan shared by link: its public read shows the dishes, Your account lists the link, and Revoke ends it', async ({ page, request }) => {
  const link = await shareTodaysPlan(page, request, 'Linked');
  if (!link) return;
  const url = (await link.getAttribute('href'))!;
  const shown = await request.get(url);
  expect(shown.status()).toBe(200);
  expect(await shown.text()).toContain('Linked porridge');
  await scan(page, 'a shared meal plan');

  await goInApp(page, '/household');
  const links = page.locator('section.shared-links');
  const row = links.locator('tbody tr').filter({ has: page.getByRole('button', { name: 'Copy link' }) });
  await expect(row).toHaveCount(1);
  await expect(row.locator('.chip')).toHaveText('Live');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('The link was revoked.')).toBeVisible();
  await expect(links.locator('tbody tr .chip').first()).toHaveText('Revoked');
  expect((await request.get(url)).status()).toBe(404);
});

test('with config.json\'s share_page, a shared plan\'s link is the operator\'s page for it, not the service\'s JSON', async ({ page, request }) => {
  await page.route('**/config.json', (route) => route.fulfill({ json: { share_page: 'https://share.example.org/shared/{token}?from=larder' } }));
  const link = await shareTodaysPlan(page, request, 'Paged');
  if (!link) return;
  const listed = await request.get(api('shares'), { headers: await headers(request) });
  expect(listed.ok(), await listed.text()).toBeTruthy();
  const [newest] = (await listed.json()).result.shares;
  expect(await link.getAttribute('href')).toBe(`https://share.example.org/shared/${newest.token}?from=larder`);
});

test('meal plans: a revoke that fails says why in the service\'s words and changes nothing on screen', async ({ page, request }) => {
  const m = await household(request);
  const stored = await store(request, m.Ann, 'Kept', [m.Ben]);
  await openMember(page, m.Ann);
  await expect(today(page).locator('.meal-title').first()).toHaveText('Kept porridge');
  // Revoked for Ann behind the page's back: the page's revoke now finds no assignment.
  const behind = await request.delete(api(`members/${m.Ann}/meal-plans/${stored.id}`), { headers: await headers(request) });
  expect(behind.ok()).toBeTruthy();
  await today(page).getByRole('button', { name: 'Revoke for this member' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke for this member' }).click();
  await expect(today(page).getByRole('alert')).toContainText(`Meal plan ${stored.id} not assigned to member ${m.Ann}`);
  await expect(today(page).locator('.meal-title')).toHaveText(['Kept porridge', 'Kept soup', 'Kept stew']);
  await expect(today(page)).toContainText('Also for: Ben');
  await expect(today(page).getByRole('button', { name: 'Revoke for this member' })).toBeEnabled();
  await scan(page, 'a failed revoke');
});

test('meal plans: a member added to a plan, and production\'s 409 for one who has another plan that day, in its own words', async ({ page, request }) => {
  const m = await household(request);
  await store(request, m.Ann, 'Ours');
  await store(request, m.Cid, 'Theirs');
  await openMember(page, m.Ann);
  await today(page).getByRole('button', { name: 'Add a member to this plan…' }).click();
  const member = today(page).getByRole('combobox', { name: /^Member/ });
  // In the service's order (production lists the newest member first).
  await expect.poll(async () => (await member.locator('option').allInnerTexts()).sort()).toEqual(['Ben', 'Cid']);
  await member.selectOption({ label: 'Cid' });
  await today(page).getByRole('button', { name: 'Add to this plan' }).click();
  await expect(today(page).getByRole('alert')).toContainText(`Different meal plan already exists for date ${day()} and members: ${m.Cid}`);
  await expect(today(page).locator('.also-for')).toHaveCount(0);
  await member.selectOption({ label: 'Ben' });
  await today(page).getByRole('button', { name: 'Add to this plan' }).click();
  await expect(today(page)).toContainText('Also for: Ben');
  await expect(today(page).getByRole('alert')).toHaveCount(0);
  const bens = (await (await planOf(request, m.Ben)).json()).result;
  expect(bens.breakfast.title).toBe('Ours porridge');
  expect(bens.applies_to_member_ids.sort()).toEqual([m.Ann, m.Ben].sort());
});

test('the library: each kind the service offers, with Remove after asking; none where it offers none', async ({ page, request }) => {
  const m = await household(request);
  if (realprod) {
    // Production's households service has none of the library routes: no section, no error.
    await openMember(page, m.Ann);
    await expect(page.locator('.plan-day')).toHaveCount(7);
    await expect(page.getByRole('heading', { name: 'Library' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    return;
  }
  const h = await headers(request);
  const base = `members/${m.Ann}`;
  for (const [method, path, data] of [
    ['PUT', `${base}/saved-items/guide/urn%3Aguide%3Aeat-well-2024`, undefined],
    ['PUT', `${base}/favorites/rw-1003`, undefined],
    ['PUT', `${base}/adapted-recipes/rw-1002`, { title: 'Lentil soup, less salt', payload: { action: 'reduce', ingredients: ['lentils'] } }],
    ['POST', `${base}/saved-meal-plans`, { name: 'Our Sunday', meal_plan: plan('Sunday') }],
  ] as const) {
    const answer = await request.fetch(api(path), { method, headers: h, data });
    expect(answer.ok(), `${path}: ${await answer.text()}`).toBeTruthy();
  }
  await openMember(page, m.Ann);
  const library = page.locator('section.library');
  await expect(library.getByRole('heading', { level: 3 })).toHaveText(['Saved items', 'Favourite recipes', 'Adapted recipes', 'Saved meal plans']);
  await expect(library).toContainText('urn:guide:eat-well-2024');
  await expect(library).toContainText('Lentil soup, less salt');
  await expect(library).toContainText('Sunday porridge · Sunday soup · Sunday stew');
  await scan(page, 'a member\'s library');
  const favourites = library.locator('.library-kind').nth(1);
  await favourites.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Remove rw-1003 from the library?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(favourites).toContainText('None saved.');
  expect((await (await request.get(api(`${base}/favorites`), { headers: h })).json()).result).toEqual([]);
  // The guide is still saved (favourites are the saved recipes, not the rest).
  await expect(library.locator('.library-kind').first()).toContainText('urn:guide:eat-well-2024');
});

test('Download my data: meal plans read day by day over the days chosen', async ({ page, request }) => {
  const m = await household(request);
  await store(request, m.Ann, 'Today', [m.Ben]);
  await store(request, m.Ann, 'Tomorrow', [], day(1));
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  await expect(page.getByRole('heading', { name: 'Planned', level: 1 })).toBeVisible();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(day(-30));
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(day(7));
  await expect(page.getByText('38 days: one request per member and day.')).toBeVisible();
  const download = async () => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data (JSON)' }).click()]);
    return JSON.parse(readFileSync((await file.path())!).toString('utf8'));
  };
  const data = await download();
  expect(data.version).toBe(1);
  expect(data.member_data.meal_plans).toBe('included');
  expect(data.meal_plan_dates).toEqual({ from: day(-30), to: day(7) });
  expect(data.member_data.saved_items).toBe(realprod ? 'not offered by this service' : 'included');
  const byName = Object.fromEntries(data.members.map((x: { name: string }) => [x.name, x]));
  expect(byName.Ann.meal_plans.map((p: { date: string }) => p.date)).toEqual([day(), day(1)]);
  expect(byName.Ann.meal_plans[0].breakfast.title).toBe('Today porridge');
  expect(byName.Ben.meal_plans.map((p: { date: string }) => p.date)).toEqual([day()]);
  expect(byName.Cid.meal_plans).toEqual([]);

  // Only tomorrow; a last day before the first is refused before anything is read.
  await page.getByLabel('To', { exact: true }).fill(day(-31));
  await expect(page.getByText('The last day is before the first.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download my data (JSON)' })).toBeDisabled();
  await page.getByLabel('From', { exact: true }).fill(day(1));
  await page.getByLabel('To', { exact: true }).fill(day(1));
  await expect(page.getByText('1 day: one request per member and day.')).toBeVisible();
  const one = await download();
  const ann = one.members.find((x: { name: string }) => x.name === 'Ann');
  expect(ann.meal_plans.map((p: { date: string }) => p.date)).toEqual([day(1)]);
  expect(one.meal_plan_dates).toEqual({ from: day(1), to: day(1) });
  await scan(page, 'the download with its days');
});
