import { test, expect } from './fixtures';
import { holdBack, production, screenshots } from './helpers';

test('a curator signs in, sees the articles, and signs out', async ({ page }) => {
  // Every request to the service, the start-up module's own included, carries its correlation
  // headers (issue 39 item 7): a distinct X-Request-Id and X-Client.
  const sent: { url: string; id?: string; client?: string }[] = [];
  page.on('request', (r) => {
    if (!r.url().includes('/api/') || r.method() === 'OPTIONS') return;
    const headers = r.headers();
    sent.push({ url: r.url(), id: headers['x-request-id'], client: headers['x-client'] });
  });
  await page.goto('./');
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('Username').fill('curator');
  await page.getByLabel('Password').fill('curator-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByText('Signed in as curator')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome, curator' })).toBeVisible();
  // A curator is not an administrator: no household administration in the menu.
  await expect(page.getByRole('link', { name: 'Households' })).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge base' }).click();
  await expect(page.getByRole('heading', { name: 'Articles' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Vitamin D and bone health in older adults', exact: true })).toBeVisible();
  // The first page (25 a page by default) shows the demo articles.
  expect(await page.locator('table.records tbody tr').count()).toBeGreaterThanOrEqual(20);
  await page.screenshot({ path: 'target/playwright/screens/articles-1280.png', fullPage: true });
  expect(sent.some((r) => r.url.includes('/auth/') || r.url.includes('login') || r.url.includes('token'))).toBe(true);
  expect(sent.some((r) => r.url.endsWith('/system/ping'))).toBe(true);
  for (const request of sent) {
    expect(request.id, request.url).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
    expect(request.client, request.url).toMatch(/^larder\/\d+\.\d+\.\d+/);
  }
  expect(new Set(sent.map((r) => r.id)).size).toBe(sent.length);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in\?signed-out$/);
  await expect(page.getByText('Signed in as')).toHaveCount(0);
});

test('a wrong password says so and keeps what was typed', async ({ page }) => {
  await page.goto('sign-in');
  await expect(page.getByLabel('Username')).toBeVisible();
  await screenshots(page, 'sign-in');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshots(page, 'sign-in-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByLabel('Username').fill('curator');
  await page.getByLabel('Password').fill('not-the-password');
  const [signIn] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  // The service's own words: production passes on its identity server's.
  await expect(page.getByRole('alert')).toContainText(production ? 'Invalid user credentials' : 'Invalid credentials.');
  // ... and the id the refused request went with, for support to find it in the service's log.
  const id = signIn.headers()['x-request-id'];
  expect(id).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  expect(signIn.headers()['x-client']).toMatch(/^larder\//);
  await expect(page.getByRole('alert').locator('.request-id')).toHaveText(`Request id: ${id}`);
  await expect(page.getByLabel('Username')).toHaveValue('curator');
});

test('an empty form is caught before any call', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) calls.push(r.url()); });
  await page.goto('sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Give a username and password');
  expect(calls).toEqual([]);
});

test('nothing about the session is stored, and a reload signs out', async ({ page, context }) => {
  await page.goto('sign-in');
  await page.getByLabel('Username').fill('curator');
  await page.getByLabel('Password').fill('curator-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as curator')).toBeVisible();

  const storage = await page.evaluate(() => ({
    local: Object.keys(localStorage).length,
    session: Object.keys(sessionStorage).length,
    cookie: document.cookie,
  }));
  expect(storage).toEqual({ local: 0, session: 0, cookie: '' });
  expect(await context.cookies()).toEqual([]);
  expect(page.url()).not.toContain('token');

  await page.reload();
  await expect(page).toHaveURL(/\/sign-in$/);
});

test('the sign-in form is usable while the console loads, and what was typed carries over', async ({ page }) => {
  // Hold config.json back, as a slow network would: the start-up module (inside the page) waits
  // for it before "Sign in" works.
  const release = await holdBack(page, '**/config.json');
  const sent: string[] = [];
  page.on('request', (r) => sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
  await page.goto('sign-in');
  const starting = page.getByRole('button', { name: 'Starting…' });
  await expect(starting).toBeDisabled();
  await page.locator('#boot-name').fill('curator');
  await page.locator('#boot-secret').fill('curator-demo');
  // Enter submits nothing while the console is not there.
  await page.locator('#boot-secret').press('Enter');
  expect(sent.filter((s) => s.includes('curator-demo'))).toEqual([]);
  await expect(page).toHaveURL(/\/sign-in$/);

  release();
  // The same form comes alive: what was typed, and the focus, stay where they were.
  const signIn = page.getByRole('button', { name: 'Sign in' });
  await expect(signIn).toBeEnabled();
  await expect(page.getByLabel('Username')).toHaveValue('curator');
  await expect(page.getByLabel('Password')).toHaveValue('curator-demo');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByText('Signed in as curator')).toBeVisible();
  await expect(page.locator('#boot-shell')).toHaveCount(0);
});

test('a machine client signs in through the start-up form', async ({ page }) => {
  await page.goto('sign-in');
  await page.getByLabel('A machine client').check();
  await page.getByLabel('Client ID').fill('enhancer');
  await page.getByLabel('Client secret').fill('wrong-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByLabel('Client ID')).toHaveValue('enhancer');
});
