import { test, expect } from './fixtures';
import { api, removeHousehold, scan, setMaintenance, signIn, spendGuestBudget } from './helpers';

// Production's answers that stand at once (issue 22): a 503 `platform/maintenance` with
// Retry-After 300 is said as maintenance (a banner, the page and what was typed kept, "Try
// again", one try by itself after Retry-After, never silent retries), and a guest's spent daily
// budget (429) says when it resets and is not retried. larder-server's /__faults switches play
// production; both wires run these.
test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ request }) => {
  await setMaintenance(request, false);
  await spendGuestBudget(request, false);
  await removeHousehold(request, 'noah', 'noah-demo');
});

const banner = (page: import('@playwright/test').Page) => page.locator('.maintenance-banner');

test('maintenance: a banner says so, what was typed stays, and Try again brings the service back', async ({ page, request }) => {
  const creates: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/v1/households')) creates.push(r.url()); });
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('Kept through maintenance');

  await setMaintenance(request, true);
  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(banner(page)).toHaveAttribute('role', 'alert');
  await expect(banner(page)).toContainText('Closed for maintenance');
  await expect(banner(page)).toContainText('Try again in 5 min');
  // Nothing went away: the page, and what was typed.
  await expect(page).toHaveURL(/\/household$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Kept through maintenance');
  // Said at once: one request, no "Retrying".
  await expect(page.getByText(/Retrying/)).toHaveCount(0);
  expect(creates).toHaveLength(1);
  await scan(page, 'the maintenance banner');

  // Still closed: Try again asks, and the banner stays.
  await banner(page).getByRole('button', { name: 'Try again' }).click();
  await expect(banner(page).getByRole('button', { name: 'Try again' })).toBeEnabled();
  await expect(banner(page)).toBeVisible();

  await setMaintenance(request, false);
  await banner(page).getByRole('button', { name: 'Try again' }).click();
  await expect(banner(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(page.getByRole('heading', { name: 'Kept through maintenance' })).toBeVisible();
});

test('maintenance: the page tries again by itself once, after Retry-After, and not again', async ({ page, request }) => {
  await page.clock.install();
  const probes: string[] = [];
  page.on('request', (r) => { if (r.url().endsWith('/api/v1/households/me')) probes.push(r.url()); });
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByRole('heading', { name: 'Create your household' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Typed before the closure');
  await setMaintenance(request, true);
  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(banner(page)).toBeVisible();
  const before = probes.length;

  await page.clock.runFor('04:00');
  expect(probes.length, 'nothing asked before Retry-After').toBe(before);
  await page.clock.runFor('01:05');
  await expect.poll(() => probes.length).toBe(before + 1);
  await expect(banner(page)).toBeVisible();
  // Still closed: it does not keep asking by itself.
  await page.clock.runFor('11:00');
  expect(probes.length).toBe(before + 1);

  // Once open, the next try takes the banner away; the form kept its text throughout.
  await setMaintenance(request, false);
  await banner(page).getByRole('button', { name: 'Try again' }).click();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Typed before the closure');
});

test.describe('a guest west of UTC', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('a guest\'s spent daily budget says when it resets, in local time, and is not retried', async ({ page, request }) => {
    const asked: string[] = [];
    page.on('request', (r) => { if (r.url() === api('households/me')) asked.push(r.url()); });
    await signIn(page, 'guest', 'guest-demo');
    // Role guest is shown where roles are.
    await expect(page.locator('.who .chip', { hasText: 'guest' })).toBeVisible();

    await spendGuestBudget(request, true);
    await page.getByRole('link', { name: 'My household' }).first().click();
    const error = page.locator('.error[role=alert]');
    await expect(error).toContainText('Daily limit reached');
    // Production resets budgets at the next UTC midnight: 7 or 8 PM in New York.
    const resets = await page.evaluate(() => {
      const day = 86_400_000;
      const midnight = new Date(Math.floor(Date.now() / day) * day + day);
      return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(midnight);
    });
    expect(resets).toMatch(/(7|8):00\sPM/);
    await expect(error).toContainText(`It resets on ${resets}.`);
    await expect(error.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByText(/Retrying/)).toHaveCount(0);
    expect(asked).toHaveLength(1);
  });
});
