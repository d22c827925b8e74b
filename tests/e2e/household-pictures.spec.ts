import { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, goInApp, removeHousehold, scan, signIn } from './helpers';

// Issue 38 item 7: a member's picture chosen from a grid of faces by keyboard; and issue 36
// finding 10: member pictures load only from hosts the operator allows (config.json
// `picture_hosts`, none by default), and the page's image policy says the same. Demo accounts
// family14 and family15 (larder-server's wires; family16 is erased by household-owners.spec.ts).
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'family-demo';

async function freshMember(request: APIRequestContext, user: string, name: string, imageUrl: string) {
  const headers = { Authorization: `Bearer ${await apiToken(request, user, PASSWORD)}` };
  await removeHousehold(request, user, PASSWORD);
  const created = await request.post(api('households'), { headers, data: { name: `${user} pictures` } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const household = (await created.json()).result.id as string;
  const member = await request.post(api('members'), { headers, data: { household_id: household, name, age_group: 'adult', image_url: imageUrl } });
  expect(member.ok(), await member.text()).toBeTruthy();
  return { household, id: (await member.json()).result.id as string, headers };
}

/** The radio that is checked, its name, and where its tile is. */
async function checkedTile(page: Page) {
  return page.locator('.picture-grid input:checked').evaluate((input) => {
    const tile = input.parentElement as HTMLElement;
    return { name: input.getAttribute('aria-label'), top: tile.offsetTop, left: tile.offsetLeft, focused: document.activeElement === input };
  });
}

test('on a phone the faces are a grid: one tab stop, arrows move, and the choice is saved', async ({ page, request }) => {
  const kit = await freshMember(request, 'family14', 'Kit', 'avatar:0');
  await signIn(page, 'family14', PASSWORD);
  await page.setViewportSize({ width: 390, height: 844 });
  await goInApp(page, '/household');
  await page.getByRole('link', { name: 'Kit' }).click();
  await expect(page.getByRole('heading', { name: 'Kit', level: 1 })).toBeVisible();
  // Thirteen choices in a few rows, not thirteen rows: the grid takes less than a third of the screen.
  const grid = page.locator('.picture-grid');
  expect((await grid.boundingBox())!.height).toBeLessThan(844 / 3);
  await scan(page, 'the picture grid on a phone');

  await page.getByRole('radio', { name: 'Picture 1, pink' }).focus();
  expect(await checkedTile(page)).toMatchObject({ name: 'Picture 1, pink', focused: true });
  await page.keyboard.press('ArrowRight');
  const right = await checkedTile(page);
  expect(right).toMatchObject({ name: 'Picture 2, blue', focused: true });
  await page.keyboard.press('ArrowDown');
  const below = await checkedTile(page);
  expect(below.focused).toBeTruthy();
  expect(below.top).toBeGreaterThan(right.top);
  expect(below.left).toBe(right.left);
  await page.keyboard.press('ArrowUp');
  expect(await checkedTile(page)).toMatchObject({ name: 'Picture 2, blue', focused: true });
  await page.keyboard.press('ArrowDown');
  // One tab stop: Tab leaves the grid (and the web address's radio, of the same group) for the address.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Image URL')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect(await checkedTile(page)).toMatchObject({ name: below.name, focused: true });

  const patches: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PATCH') patches.push(r.postData() ?? ''); });
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Kit saved')).toBeVisible();
  const index = Number(/Picture (\d+),/.exec(below.name!)![1]) - 1;
  expect(patches.map((p) => JSON.parse(p))).toEqual([{ image_url: `avatar:${index}` }]);
  const stored = (await (await request.get(api(`members/${kit.id}`), { headers: kit.headers })).json()).result;
  expect(stored.image_url).toBe(`avatar:${index}`);
});

const PICTURE = 'https://pictures.example/pia.png';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test('an administrator viewing a household loads no picture from a host the operator has not allowed, and the policy agrees', async ({ page, request }) => {
  const pia = await freshMember(request, 'family15', 'Pia', PICTURE);
  const asked: string[] = [];
  page.on('request', (r) => { if (r.url().includes('pictures.example')) asked.push(r.url()); });
  const first = await page.goto('sign-in');
  // The page's policy, as header and as <meta>: pictures from the page's own origin and data: only.
  const header = first!.headers()['content-security-policy'];
  expect(header).toContain("img-src 'self' data:;");
  expect(header).not.toMatch(/img-src[^;]*https:/);
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("img-src 'self' data:;");

  await signIn(page, 'admin', 'admin-demo');
  await goInApp(page, `/households/${pia.household}`);
  const small = page.locator('.member-list [data-picture-host="pictures.example"]');
  await expect(small).toHaveText('P');
  await page.getByRole('link', { name: 'Pia' }).click();
  await expect(page.getByRole('heading', { name: 'Pia', level: 1 })).toBeVisible();
  await expect(page.getByText('Picture at pictures.example not loaded: this console loads pictures only from hosts its operator allows.').first()).toBeVisible();
  await expect(page.getByRole('img', { name: /^Picture of Pia\. Picture at pictures\.example not loaded/ }).first()).toBeVisible();
  await expect(page.locator('img[src*="pictures.example"]')).toHaveCount(0);
  await scan(page, 'a member whose picture is on a host not allowed');
  expect(asked, 'nothing was asked of the picture\'s host').toEqual([]);
});

test('a host the operator allows in config.json is loaded, under a policy widened to it', async ({ page, request }) => {
  await freshMember(request, 'family15', 'Pia', PICTURE);
  // What an operator does: config.json names the host, and the page's policy (header and meta) allows it.
  await page.route('**/config.json', (route) => route.fulfill({ json: { picture_hosts: ['pictures.example'] } }));
  await page.route((url) => !/\.[a-z0-9]+$/i.test(url.pathname) || url.pathname.endsWith('.html'), async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const answer = await route.fetch();
    const widen = (text: string) => text.replaceAll("img-src 'self' data:", "img-src 'self' data: https://pictures.example");
    const headers = { ...answer.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    headers['content-security-policy'] = widen(headers['content-security-policy'] ?? '');
    await route.fulfill({ status: answer.status(), headers, body: widen(await answer.text()) });
  });
  const asked: string[] = [];
  await page.route('https://pictures.example/**', (route) => { asked.push(route.request().url()); return route.fulfill({ contentType: 'image/png', body: PNG }); });
  await signIn(page, 'family15', PASSWORD);
  await goInApp(page, '/household');
  const picture = page.locator('.member-list img[alt="Picture of Pia"]');
  await expect(picture).toHaveAttribute('src', PICTURE);
  await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
  expect(asked).toContain(PICTURE);
  await removeHousehold(request, 'family15', PASSWORD);
});
