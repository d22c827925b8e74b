import { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, goInApp, householdFor, production, removeHousehold, scan, signIn } from './helpers';

// Issue 38, items 1 and 2: a profile's keys as production's front end writes them (production.md
// §10.1) and allergies the meal planner can enforce (§10.2). Runs on both larder-server wires and
// against production's own households service (no /__faults, no demo-only account: noah plays
// alice there). Nothing in Larder writes memory_log, so the memories are seeded through the API.
test.describe.configure({ mode: 'serial' });

const OWNER = 'noah';
const PASSWORD = 'noah-demo';

async function headers(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request, OWNER, PASSWORD)}` };
}

async function stored(request: APIRequestContext, member: string) {
  const answer = await request.get(api(`members/${member}/profile`), { headers: await headers(request) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return (await answer.json()).result;
}

/** Gives `member` a profile: POST (which drops `properties`), then PATCH of `properties`. */
async function seedProfile(request: APIRequestContext, member: string, profile: { properties?: object } & object) {
  const { properties, ...rest } = profile as { properties?: object };
  const created = await request.post(api(`members/${member}/profile`), { headers: await headers(request), data: rest });
  expect(created.ok(), await created.text()).toBeTruthy();
  if (properties) {
    const patched = await request.patch(api(`members/${member}/profile`), { headers: await headers(request), data: { properties } });
    expect(patched.ok(), await patched.text()).toBeTruthy();
  }
}

const LOG = [
  { kind: 'like', value: 'chicken', source: 'foodchat', session_id: 's-1', recorded_at: '2026-11-01T12:00:00Z', evidence: 'I could eat chicken every day' },
  { kind: 'goal', value: 'reduce_fat', source: 'foodscholar', recorded_at: '2026-11-02T12:00:00Z', source_text: 'How do I eat less saturated fat?' },
  { kind: 'allergy_hint', value: 'peanut', source: 'foodchat', recorded_at: '2026-11-03T12:00:00Z', evidence: 'peanuts make me ill' },
  'a stray line',
];

let members: { id: string; name: string }[] = [];

test.beforeAll(async ({ request }) => {
  await removeHousehold(request, OWNER, PASSWORD);
  await householdFor(request, OWNER, PASSWORD, { name: 'Profile keys', members: 2 });
  const own = (await (await request.get(api('households/me'), { headers: await headers(request) })).json()).result;
  members = own.members.map((m: { id: string; name: string }) => ({ id: m.id, name: m.name }));
  const first = members.find((m) => m.name === 'Member 001')!;
  const second = members.find((m) => m.name === 'Member 002')!;
  await seedProfile(request, first.id, {
    dietary_groups: ['vegetarian'],
    allergies: ['Dairy', 'shellfish', 'kiwi', 'peanut'],
    nutritional_preferences: { gender: 'prefer_not_to_say', food_likes: ['chicken', 'tofu'], texture: { soft: true } },
    properties: {
      dietary_goals: [{ slug: 'reduce_fat', label: 'Less saturated fat' }, 'gain_muscle', 42],
      memory_log: LOG,
      standing_seeds: [{ name: 'Lentil soup' }, { name: 'Fish pie' }],
      zodiac: 'leo',
    },
  });
  // Larder's earlier guesses, as an earlier Larder saved them.
  await seedProfile(request, second.id, {
    dietary_groups: ['vegan'],
    properties: { gender: 'female', goals: ['More protein', 'sleep better'], memories: [{ text: 'likes green tea', source: 'chat' }], zodiac: 'virgo' },
  });
});

test.afterAll(async ({ request }) => { await removeHousehold(request, OWNER, PASSWORD); });

async function openMember(page: Page, name: string) {
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

/** Presses "Save profile" and waits for the service's answer. */
async function saveProfile(page: Page) {
  const answered = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/members\/[^/]+\/profile$/.test(r.url()));
  await page.getByRole('button', { name: 'Save profile' }).click();
  expect((await answered).ok()).toBeTruthy();
}

/** The PATCH bodies of profile saves from now on. */
function patchesOf(page: Page) {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH' && /\/members\/[^/]+\/profile$/.test(r.url())) bodies.push(JSON.parse(r.postData() ?? '{}')); });
  return bodies;
}

test('profile keys: gender, goals and allergies read and written under production\'s names; unknown keys survive', async ({ page, request }) => {
  const member = members.find((m) => m.name === 'Member 001')!;
  await openMember(page, 'Member 001');
  await expect(page.getByLabel('Gender')).toHaveValue('prefer_not_to_say');
  await expect(page.getByLabel('Gender').locator('option:checked')).toHaveText('Prefer not to say');
  await expect(page.getByRole('checkbox', { name: 'Less saturated fat' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Build muscle' })).toBeChecked();
  await expect(page.getByRole('list', { name: 'Other goals' })).toContainText('42');
  // Allergies folded as production folds them: dairy is Milk, shellfish two allergens.
  for (const allergen of ['Milk', 'Crustaceans', 'Molluscs', 'Peanuts']) {
    await expect(page.getByRole('checkbox', { name: allergen })).toBeChecked();
  }
  await expect(page.getByRole('checkbox', { name: 'Eggs' })).not.toBeChecked();
  const renamed = page.getByRole('list', { name: 'Saved as standard allergens' });
  await expect(renamed).toContainText('Stored as “Dairy”: saved as Milk (milk).');
  await expect(renamed).toContainText('Stored as “shellfish”: saved as Crustaceans, Molluscs (crustacean_shellfish, molluscs).');
  const other = page.getByRole('list', { name: 'Other allergies' });
  await expect(other).toContainText('kiwi');
  await expect(other).toContainText('The meal planner may not recognise “kiwi”.');
  // Unknown keys stay in the editors below, as they are.
  const values = () => page.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  await expect.poll(values).toContain('zodiac');
  expect(await values()).toContain('texture');
  await scan(page, 'the profile with production\'s keys, allergens and memories');

  const patches = patchesOf(page);
  await page.getByLabel('Gender').selectOption('female');
  await page.getByRole('checkbox', { name: 'More fiber' }).check();
  await page.getByLabel('Add an allergy').fill('Sesame Seeds');
  await page.getByLabel('Add an allergy').press('Enter');
  await expect(page.getByRole('status').filter({ hasText: '“Sesame Seeds” is Sesame seeds.' })).toBeVisible();
  await page.getByLabel('Add an allergy').fill('Kiwi_Fruit');
  await page.getByLabel('Add an allergy').press('Enter');
  await expect(other).toContainText('The meal planner may not recognise “Kiwi_Fruit”.');
  await saveProfile(page);
  expect(patches).toHaveLength(1);
  expect(Object.keys(patches[0]).sort()).toEqual(['allergies', 'nutritional_preferences', 'properties']);
  const saved = await stored(request, member.id);
  // Known names as ids, unknown ones as typed, in order.
  expect(saved.allergies).toEqual(['milk', 'crustacean_shellfish', 'molluscs', 'kiwi', 'peanut', 'sesame', 'Kiwi_Fruit']);
  expect(saved.nutritional_preferences).toEqual({ gender: 'female', food_likes: ['chicken', 'tofu'], texture: { soft: true } });
  expect(saved.properties.dietary_goals).toEqual([{ slug: 'reduce_fat', label: 'Less saturated fat' }, 'gain_muscle', 42, { slug: 'increase_fiber', label: 'More fiber' }]);
  expect(saved.properties.memory_log).toEqual(LOG);
  expect(saved.properties.zodiac).toBe('leo');
  await expect(renamed).toHaveCount(0);

  // Cleared, gender is removed, not stored empty.
  await page.getByLabel('Gender').selectOption('');
  await saveProfile(page);
  expect((await stored(request, member.id)).nutritional_preferences).toEqual({ food_likes: ['chicken', 'tofu'], texture: { soft: true } });
});

test('what WiseFood remembers: correct and forget as production\'s front end does, and a failed save keeps every edit', async ({ page, request }) => {
  const member = members.find((m) => m.name === 'Member 001')!;
  await openMember(page, 'Member 001');
  const remembered = page.getByRole('region', { name: 'What WiseFood remembers' });
  await expect(remembered).toContainText('FoodScholar');
  await expect(remembered).toContainText('“I could eat chicken every day”');
  await expect(remembered).toContainText('“How do I eat less saturated fat?”');
  await expect(remembered).toContainText('a stray line');
  await expect(page.getByRole('list', { name: 'Standing dishes' })).toContainText('Lentil soup');

  // Correct: a like becomes a dislike; stamped, its words kept, the food moved.
  await page.getByRole('button', { name: 'Correct “chicken”' }).click();
  await page.getByLabel('Kind').selectOption('dislike');
  await page.getByLabel('New value').fill('chicken thighs');
  await page.getByRole('button', { name: 'Save correction' }).click();
  await expect(page.getByText('Corrected', { exact: true })).toBeVisible();
  let saved = await stored(request, member.id);
  const corrected = saved.properties.memory_log[0];
  expect(corrected).toMatchObject({ kind: 'dislike', value: 'chicken thighs', source: 'foodchat', session_id: 's-1', recorded_at: '2026-11-01T12:00:00Z', evidence: 'I could eat chicken every day', edited_by: 'member' });
  expect(Date.parse(corrected.edited_at)).toBeGreaterThan(Date.now() - 600_000);
  expect(saved.nutritional_preferences.food_likes).toEqual(['tofu']);
  expect(saved.nutritional_preferences.food_dislikes).toEqual(['chicken thighs']);

  // A form edit pending meanwhile stays on screen; a failed save changes nothing and keeps it.
  await page.getByRole('checkbox', { name: 'Celery' }).check();
  await page.route('**/api/v1/members/*/profile', (route) => route.request().method() === 'PATCH'
    ? route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ success: false, error: { title: 'ValidationError', detail: 'Validation failed', code: 'request/unprocessable' } }) })
    : route.fallback());
  await page.getByRole('button', { name: 'Forget “Less saturated fat”' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Forget' }).click();
  await expect(page.getByText('Validation failed').first()).toBeVisible();
  await expect(remembered).toContainText('Less saturated fat');
  await expect(page.getByRole('checkbox', { name: 'Less saturated fat' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Celery' })).toBeChecked();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('checkbox', { name: 'Celery' })).toBeChecked();
  await page.unroute('**/api/v1/members/*/profile');
  const memoryPatches = patchesOf(page);

  // Forget a goal: the goal leaves dietary_goals; the pending Celery stays pending.
  await page.getByRole('button', { name: 'Forget “Less saturated fat”' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Forget' }).click();
  await expect(page.getByText('Forgotten', { exact: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Less saturated fat' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Celery' })).toBeChecked();
  saved = await stored(request, member.id);
  expect(saved.properties.dietary_goals.map((g: { slug?: string } | string | number) => (typeof g === 'object' ? g.slug : g))).toEqual(['gain_muscle', 42, 'increase_fiber']);
  expect(saved.allergies).not.toContain('celery');

  // Forget an allergy memory: it asks first and says the allergy goes too.
  await page.getByRole('button', { name: 'Forget “Peanuts”' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('This also removes Peanuts from the allergies');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Forget' }).click();
  await expect(page.getByText('Forgotten', { exact: true }).last()).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Peanuts' })).not.toBeChecked();
  await expect.poll(async () => (await stored(request, member.id)).allergies).not.toContain('peanut');
  saved = await stored(request, member.id);
  expect(saved.properties.memory_log.map((e: { kind?: string } | string) => (typeof e === 'string' ? e : e.kind))).toEqual(['dislike', 'a stray line']);

  // Correct a standing dish that has no log line: renamed by name, and a line appended.
  await page.getByRole('button', { name: 'Correct “Fish pie”' }).click();
  await page.getByLabel('New value').fill('Fish pie with peas');
  await page.getByRole('button', { name: 'Save correction' }).click();
  await expect(page.getByRole('list', { name: 'Standing dishes' })).toContainText('Fish pie with peas');
  saved = await stored(request, member.id);
  expect(saved.properties.standing_seeds).toEqual([{ name: 'Lentil soup' }, { name: 'Fish pie with peas' }]);
  expect(saved.properties.memory_log.at(-1)).toMatchObject({ kind: 'standing_seed', value: 'Fish pie with peas', edited_by: 'member' });
  // One PATCH per memory change, none of them carrying the pending Celery.
  expect(memoryPatches).toHaveLength(3);
  expect(memoryPatches.every((p) => !JSON.stringify(p).includes('celery'))).toBeTruthy();
  await saveProfile(page);
  expect((await stored(request, member.id)).allergies).toContain('celery');
});

test('Larder\'s earlier keys are offered once to move to production\'s names, and nothing else changes', async ({ page, request }) => {
  const member = members.find((m) => m.name === 'Member 002')!;
  await openMember(page, 'Member 002');
  const offer = page.getByRole('region', { name: 'Move to production\'s names' });
  await expect(offer).toContainText('gender: properties.gender → nutritional_preferences.gender');
  await expect(offer).toContainText('2 goals: properties.goals → properties.dietary_goals');
  await expect(offer).toContainText('1 memory: properties.memories → properties.memory_log');
  await scan(page, 'the offer to move earlier keys');
  await offer.getByRole('button', { name: 'Not now' }).click();
  await expect(offer).toHaveCount(0);
  await page.getByRole('link', { name: '← My household' }).click();
  await page.getByRole('link', { name: 'Member 002' }).click();
  await offer.getByRole('button', { name: 'Move them' }).click();
  await expect(page.getByText('Moved to production\'s names')).toBeVisible();
  await expect(offer).toHaveCount(0);
  const saved = await stored(request, member.id);
  expect(saved.nutritional_preferences).toEqual({ gender: 'female' });
  expect(saved.properties).toEqual({
    dietary_goals: [{ slug: 'increase_protein', label: 'More protein' }, 'sleep better'],
    memory_log: [{ kind: 'note', value: 'likes green tea', source: 'chat' }],
    zodiac: 'virgo',
  });
  expect(saved.dietary_groups).toEqual(['vegan']);
  await expect(page.getByLabel('Gender')).toHaveValue('female');
  await expect(page.getByRole('checkbox', { name: 'More protein' })).toBeChecked();
  await expect(page.getByRole('list', { name: 'Other goals' })).toContainText('Sleep better');
  await expect(page.locator('[data-memory="note"]')).toContainText('likes green tea');
  // Moved once: opened again, nothing is offered.
  await page.getByRole('link', { name: '← My household' }).click();
  await page.getByRole('link', { name: 'Member 002' }).click();
  await expect(page.getByLabel('Gender')).toHaveValue('female');
  await expect(offer).toHaveCount(0);
});

test('a dietary group production cannot store: there the save fails once, the console says so and keeps the form', async ({ page, request }) => {
  // production.md §9: production's schema takes `diabetic_friendly`, its storage enum does not, so
  // every write carrying it answers 500 and stores nothing (larder-server's production wire too).
  const member = members.find((m) => m.name === 'Member 002')!;
  const before = await stored(request, member.id);
  await openMember(page, 'Member 002');
  const chosen = page.getByRole('list', { name: 'Chosen dietary groups' });
  await page.getByLabel('Search dietary groups').fill('diabetic');
  await page.getByLabel('Search dietary groups').press('Enter');
  await expect(chosen).toContainText(/diabetic friendly/i);
  const patches = patchesOf(page);
  const answered = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/members\/[^/]+\/profile$/.test(r.url()));
  await page.getByRole('button', { name: 'Save profile' }).click();
  const answer = await answered;
  if (!production) {
    expect(answer.ok()).toBeTruthy();
    await expect.poll(async () => (await stored(request, member.id)).dietary_groups).toEqual(['vegan', 'diabetic_friendly']);
    return;
  }
  expect(answer.status()).toBe(500);
  await expect(page.getByRole('alert').filter({ hasText: 'Internal Server Error' }).first()).toBeVisible();
  await expect(chosen).toContainText(/diabetic friendly/i);
  await expect(page.getByRole('button', { name: 'Save profile' })).toBeEnabled();
  expect(patches).toEqual([{ dietary_groups: ['vegan', 'diabetic_friendly'] }]);
  expect(await stored(request, member.id)).toEqual(before);
});
