import { test, expect } from './fixtures';
import { api, apiToken, realprod, signIn, scanBothSchemes } from './helpers';

// Issue 41 items 1–3 under "Your account": the consent to the privacy notice (the version
// config.json names, "1.0" by default), a guest keeping their account, and the owner's shared
// links. On the reference and production wires larder-server serves the routes; production's own
// households service (realprod) lacks them (a bare 404), where nothing of them is shown.
// The claim renames the guest gus for good: a second run needs a fresh server (as
// `cargo xtask journeys` starts one per wire).

const EMAIL = 'gus.kept@example.org';
const PASSWORD = 'a-long-enough-pass';

// Realprod's identity stand-in has no guest gus: there the next journey covers the absent routes.
if (!realprod) test('a guest accepts the privacy notice and keeps their account; the header no longer says guest', async ({ page, request }) => {
  await signIn(page, 'gus', 'gus-demo-pass');
  await expect(page.locator('.who .chip', { hasText: 'guest' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My household' }).click();
  const account = page.locator('section[aria-labelledby="account-title"]');

  // Consent: a prompt, then the line with the version and the date; the service holds it.
  await expect(account.getByText('Please read and accept the privacy notice, version 1.0.')).toBeVisible();
  await account.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(account.getByText(/^You accepted the privacy notice, version 1\.0, on .+\.$/)).toBeVisible();
  const token = await apiToken(request, 'gus', 'gus-demo-pass');
  const consent = await request.get(api('users/me/consent'), { headers: { Authorization: `Bearer ${token}` } });
  expect((await consent.json()).result).toMatchObject({ granted: true, version: '1.0' });

  // Shared links: none yet.
  await expect(account.getByRole('heading', { name: 'Shared links' })).toBeVisible();
  await expect(account.getByText('No shared links yet.')).toBeVisible();
  await scanBothSchemes(page, 'your account, a guest');

  // Keep this account: a short password is refused here, and what was typed stays.
  const form = account.locator('form.keep-account');
  await form.getByLabel('E-mail').fill(EMAIL);
  await form.getByLabel('First name').fill('Gus');
  await form.getByLabel('New password').fill('too-short');
  await form.getByRole('button', { name: 'Keep this account' }).click();
  await expect(form.getByText('The password needs at least 10 characters.')).toBeVisible();
  await expect(form.getByLabel('E-mail')).toHaveValue(EMAIL);
  await expect(form.getByLabel('First name')).toHaveValue('Gus');

  await form.getByLabel('New password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Keep this account' }).click();
  await expect(account.getByText(`Your account is kept. Sign in from now on as ${EMAIL}.`)).toBeVisible();
  // The session was renewed under the new address: no guest in the header, no form.
  await expect(page.getByText(`Signed in as ${EMAIL}`)).toBeVisible();
  await expect(page.locator('.who .chip', { hasText: 'guest' })).toHaveCount(0);
  await expect(account.locator('form.keep-account')).toHaveCount(0);
  // The consent followed the account.
  await expect(account.getByText(/^You accepted the privacy notice, version 1\.0/)).toBeVisible();

  // The guest's name no longer signs in; the address does, without guest.
  const old = await request.post(api('system/login'), { data: { username: 'gus', password: 'gus-demo-pass' } });
  expect(old.status()).toBe(401);
  expect(await apiToken(request, EMAIL, PASSWORD)).toBeTruthy();
});

test('an owner who is no guest sees no claim form; where the service lacks the routes, none of them shows', async ({ page }) => {
  await signIn(page, 'olivia', 'olivia-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My household' }).click();
  const account = page.locator('section[aria-labelledby="account-title"]');
  await expect(account.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(account.locator('form.keep-account')).toHaveCount(0);
  if (realprod) {
    // Production's households service answers these routes with a bare 404: nothing shown.
    await expect(account.getByRole('button', { name: 'Erase my account…' })).toBeVisible();
    await expect(account.getByText(/privacy notice/)).toHaveCount(0);
    await expect(account.getByRole('heading', { name: 'Shared links' })).toHaveCount(0);
  } else {
    await expect(account.getByText(/privacy notice, version 1\.0/)).toBeVisible();
    await expect(account.getByRole('heading', { name: 'Shared links' })).toBeVisible();
  }
  await scanBothSchemes(page, 'your account, an owner');
});
