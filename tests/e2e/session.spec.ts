import { test, expect } from './fixtures';
import { signIn, goInApp, apiToken, api, person, typeCredentials, userName } from './helpers';

test.describe.configure({ mode: 'serial' });

const refusal = (detail: string) => ({
  status: 401,
  contentType: 'application/json',
  body: JSON.stringify({ success: false, error: { title: 'AuthenticationError', detail, code: 'auth/unauthorized' } }),
});

test('when the token cannot be renewed, a dialog signs in again and the form keeps its content', async ({ page, request }) => {
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill('Kept through a new sign-in');

  // The service revokes the token and refuses the renewal once (injected at the network layer);
  // after that the real service answers again.
  await page.route('**/api/v1/households', (route) => route.fulfill(refusal('Token revoked.')), { times: 1 });
  await page.route('**/api/v1/system/login', (route) => route.fulfill(refusal('Invalid credentials.')), { times: 1 });
  await page.getByRole('button', { name: 'Create household' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Your session has ended');
  await expect(dialog.getByLabel('Username')).toHaveValue(userName('noah'));
  await dialog.getByLabel('Password').fill(person('noah').password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Kept through a new sign-in');

  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(page.getByRole('heading', { name: 'Kept through a new sign-in' })).toBeVisible();

  // Leave noah without a household for the other journeys.
  const token = await apiToken(request, 'noah', 'noah-demo');
  const headers = { Authorization: `Bearer ${token}` };
  const id = (await (await request.get(api('households/me'), { headers })).json()).result.id;
  expect((await request.delete(api(`households/${id}`), { headers })).status()).toBe(200);
});

test('a refusal says "Not allowed" and keeps the session', async ({ page, request }) => {
  const token = await apiToken(request, 'olivia', 'olivia-demo');
  const headers = { Authorization: `Bearer ${token}` };
  const household = (await (await request.get(api('households/me'), { headers })).json()).result.id;
  const member = (await (await request.get(api(`members?household_id=${household}`), { headers })).json()).result[0].id;

  await signIn(page, 'noah', 'noah-demo');
  await goInApp(page, `/household/members/${member}`);
  await expect(page.locator('.error[role=alert]')).toContainText('Not allowed');
  await expect(page.locator('.error[role=alert]')).toContainText('do not have access');
  await expect(page.getByText(`Signed in as ${userName('noah')}`)).toBeVisible();
});

test('a malformed config.json stops the console with a page that says what is wrong', async ({ page }) => {
  await page.route('**/config.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"data_api_base": 5}' }));
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Larder cannot start' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('config.json is not valid');
  await expect(page.locator('pre')).toContainText('"system_api_base"');
});

test('the sign-in form is painted before config.json answers', async ({ page }) => {
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => { answer = resolve; });
  await page.route('**/config.json', async (route) => { await held; await route.fulfill({ status: 404, body: '' }); });
  await page.goto('sign-in');
  await expect(page.getByLabel('Username')).toBeVisible();
  // Signing in waits for the file that says where the service is.
  await expect(page.getByRole('button', { name: 'Starting…' })).toBeDisabled();
  answer();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});

test('a deep link opened without a session leads there after signing in', async ({ page }) => {
  await page.goto('household');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fhousehold$/);
  await typeCredentials(page, 'olivia');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/household$/);
  await expect(page.getByRole('heading', { name: 'The Parkers' })).toBeVisible();
});

test('while the client retries, the header says so, and the page loads once the service recovers', async ({ page }) => {
  await signIn(page, 'olivia', 'olivia-demo');
  const unavailable = { status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, error: { title: 'ServiceUnavailableError', detail: 'Busy.', code: 'upstream/unavailable' } }) };
  await page.route('**/api/v1/households/me', (route) => route.fulfill(unavailable), { times: 2 });
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByRole('status').filter({ hasText: /Retrying 2 of 3/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The Parkers' })).toBeVisible();
  await expect(page.getByText(/Retrying/)).toHaveCount(0);
});
