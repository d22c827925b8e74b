import { test, expect } from './fixtures';
import { signIn, goInApp } from './helpers';

// Issue 42 item 3: a tab opened while another tab of the console is signed in takes that tab's
// session over the same-origin channel: no password, nothing stored, the page asked for opened
// with its query; signing out in either signs out both.

test('a new tab opens the page asked for, signed in by the other tab, with no password and nothing stored', async ({ page, context }) => {
  await signIn(page, 'admin', 'admin-demo');
  const second = await context.newPage();
  const logins: string[] = [];
  second.on('request', (r) => { if (/system\/(login|mtm)$/.test(new URL(r.url()).pathname)) logins.push(r.url()); });
  await second.goto('records/guidelines?q=olive&limit=25');
  await expect(second.getByText('Signed in as admin')).toBeVisible();
  await expect(second.locator('table.records tbody tr').first()).toBeVisible();
  expect(new URL(second.url()).pathname.endsWith('/records/guidelines')).toBe(true);
  expect(new URL(second.url()).searchParams.get('q')).toBe('olive');
  expect(logins, 'no sign-in sent by the new tab').toEqual([]);
  // Nothing at rest in the new tab: no storage but the display preferences, no cookie.
  const stored = await second.evaluate(() => ({
    session: sessionStorage.length,
    local: Object.keys(localStorage).filter((k) => !['larder.language', 'larder.theme', 'larder.text-size', 'larder.contrast'].includes(k)),
  }));
  expect(stored).toEqual({ session: 0, local: [] });
  expect(await context.cookies()).toEqual([]);

  // The session works for writes' reads too: another page of the app, in the app.
  await goInApp(second, '/overview');
  await expect(second.locator('.overview-card .overview-total').first()).toBeVisible();

  // Signing out in the new tab signs out the first.
  await second.getByRole('button', { name: 'Sign out' }).click();
  await expect(second.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
  await second.close();
});

test('with no tab signed in, a new tab shows the sign-in form, and a press still signs in', async ({ page, context }) => {
  await page.goto('sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  const second = await context.newPage();
  await second.goto('overview');
  await expect(second.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  // Longer than the wait for another tab's answer: still the form, nobody signed in.
  await second.waitForTimeout(800);
  await expect(second.getByText('Signed in as')).toHaveCount(0);
  await second.close();
  await signIn(page, 'admin', 'admin-demo');
});
