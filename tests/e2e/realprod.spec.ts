import { test, expect } from './fixtures';
import { api, apiToken, goInApp, householdFor, removeHousehold, signIn, userName } from './helpers';

// Only against production's own households service (`cargo xtask realprod`, LARDER_WIRE=realprod;
// playwright.config.ts leaves this file out elsewhere): what only the real thing shows. Its
// identity stand-in's tokens live LARDER_REALPROD_TTL seconds (20 in CI) and production has no
// refresh route, so the console must sign in again by itself before a token dies; and its
// database answers stamps without a zone, which mean UTC.
test.describe.configure({ mode: 'serial' });

const TTL_SECS = Number(process.env.LARDER_REALPROD_TTL ?? '20');

test.beforeEach(async ({ request }) => { await removeHousehold(request, 'noah', 'noah-demo'); });
test.afterAll(async ({ request }) => { await removeHousehold(request, 'noah', 'noah-demo'); });

test('a session outlives its access token: the console signs in again by itself, and what was typed is saved', async ({ page, request }) => {
  test.setTimeout(30_000 + TTL_SECS * 2_000);
  const signIns: string[] = [];
  const tokens = new Set<string>();
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/system/login')) signIns.push(r.method());
    const bearer = r.headers()['authorization'];
    if (bearer) tokens.add(bearer);
  });
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByRole('heading', { name: 'Create your household' })).toBeVisible();
  const first = [...tokens][0];
  expect(first, 'the page sent a token').toBeTruthy();
  await page.getByLabel('Name', { exact: true }).fill('Outlived its token');

  // Past the token's life: production itself refuses it now.
  await page.waitForTimeout((TTL_SECS + 2) * 1000);
  const dead = await request.get(api('households/me'), { headers: { Authorization: first } });
  expect(dead.status()).toBe(401);
  expect((await dead.json()).error.detail).toBe('Bearer token could not be verified');

  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(page.getByRole('heading', { name: 'Outlived its token' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(signIns.length, 'the console signed in again by itself').toBeGreaterThanOrEqual(2);
  expect(tokens.size).toBeGreaterThanOrEqual(2);
});

test.describe('in a time zone east of UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('a household\'s stamps, answered without a zone, are shown as UTC in local time', async ({ page, request }) => {
    await householdFor(request, 'noah', 'noah-demo', { name: 'Stamped', members: 1 });
    const headers = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
    const stored = (await (await request.get(api('households/me'), { headers })).json()).result;
    // What production's database answers: no zone (`2026-11-26T17:42:43.282604`).
    expect(stored.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);

    await signIn(page, 'noah', 'noah-demo');
    await goInApp(page, '/household');
    await expect(page.getByRole('heading', { name: 'Stamped', level: 1 })).toBeVisible();
    const { asUtc, asLocal } = await page.evaluate((stamp) => {
      const format = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
      const ms = stamp.slice(0, 23);
      return { asUtc: format.format(new Date(`${ms}Z`)), asLocal: format.format(new Date(ms)) };
    }, stored.created_at as string);
    // The check could fail: read as local time, the stamp would be 5½ hours off here.
    expect(asUtc).not.toBe(asLocal);
    const facts = page.locator('.facts');
    await expect(facts.locator('dt', { hasText: 'Created' }).locator('+ dd')).toHaveText(asUtc);
    await expect(page.locator('.who')).toContainText(`Signed in as ${userName('noah')}`);
  });
});

test('a first household in three steps works against production, which drops profile details inside a create', async ({ page, request }) => {
  const posts: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && /\/api\/v1\/(households|members)/.test(r.url())) posts.push(new URL(r.url()).pathname); });
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByText('Getting started: step 1 of 3')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Guided on production');
  await page.getByLabel('Region').fill('SI');
  await page.getByRole('button', { name: 'Create household' }).click();

  await expect(page.getByRole('heading', { name: 'Getting started: step 2 of 3' })).toBeVisible();
  await page.getByLabel("First member's name").fill('Ana');
  await page.getByLabel('Their age group').selectOption('adult');
  await page.getByRole('button', { name: 'Save and continue' }).click();

  await expect(page.getByRole('heading', { name: 'Getting started: step 3 of 3' })).toBeVisible();
  await page.getByLabel('Search dietary groups').fill('vegan');
  await page.getByLabel('Search dietary groups').press('Enter');
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page.getByText('Your household is ready')).toBeVisible();

  // Three separate calls, and production kept what each carried.
  expect(posts.map((p) => p.replace(/[0-9a-f-]{36}/, 'ID'))).toEqual(['/api/v1/households', '/api/v1/members', '/api/v1/members/ID/profile']);
  const headers = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
  const own = (await (await request.get(api('households/me'), { headers })).json()).result;
  expect(own.name).toBe('Guided on production');
  expect(own.region).toBe('SI');
  expect(own.members.map((m: { name: string }) => m.name)).toEqual(['Ana']);
  const profile = await request.get(api(`members/${own.members[0].id}/profile`), { headers });
  expect(profile.ok(), await profile.text()).toBeTruthy();
  expect((await profile.json()).result.dietary_groups).toEqual(['vegan']);
});
