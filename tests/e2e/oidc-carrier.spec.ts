import { Page } from '@playwright/test';
import { test, expect } from './fixtures';

// Issue 42's carrier: a sign-in at the identity provider by top-level redirect keeps its `state`,
// `nonce` and PKCE verifier only in the same-origin service worker (crates/start/js/oidc-worker.js)
// while the page is away, and nothing at rest (the fixture checks storage, cookies and URLs, with
// the verifier and every token of the token endpoint among its secrets). The page is the probe of
// tests/oidc/probe, served by larder-server --oidc-issuer under /console/probe/ on 127.0.0.1; the
// provider (tests/oidc/provider.mjs) is on localhost, another site. `cargo xtask journeys tests/e2e/oidc-carrier.spec.ts` runs this.

const issuer = process.env.OIDC_ISSUER ?? '';

type Outcome = Record<string, unknown> & { status: string };

/** The probe's outcome once it has `status`: its status and text read together, from one page
 * (read apart, a page replaced in between gave the old status with the new page's text). */
async function outcome(page: Page, status: string): Promise<Outcome> {
  let text = '{}';
  await expect.poll(async () => {
    const seen = await page.locator('#result')
      .evaluate((el) => [el.getAttribute('data-status'), el.textContent ?? '{}'], undefined, { timeout: 1_000 })
      .catch(() => [null, '{}']);
    text = seen[1] ?? '{}';
    return seen[0];
  }, { timeout: 15_000 }).toBe(status);
  return JSON.parse(text);
}

/** Presses one of the probe's buttons after marking its outcome stale, so the next outcome is
 * the one the press brought, never the page's before it. */
async function press(page: Page, name: string): Promise<void> {
  await page.locator('#result').evaluate((el) => { el.setAttribute('data-status', 'stale'); el.textContent = '{}'; });
  await page.getByRole('button', { name, exact: true }).click();
}

/** Signs in at the provider's form as `login`; the probe's outcome once back. */
async function signIn(page: Page, login = 'olivia'): Promise<Outcome> {
  await page.goto('probe/');
  await outcome(page, 'ready');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByLabel('Password').fill(`${login}-demo`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return outcome(page, 'signed-in');
}

test.beforeAll(() => {
  expect(issuer, 'OIDC_ISSUER (cargo xtask oidc sets it)').toMatch(/^http:\/\/localhost:\d+$/);
});

test('the service worker carries the sign-in across the redirect to the provider and back, once', async ({ page, context, baseURL }) => {
  const probe = `${baseURL}probe/`;
  const signedIn = await signIn(page);
  // Its values came back: the answer is this sign-in's, the ID token names its nonce, the
  // verifier was the one the challenge was made from (the provider exchanged the code), and the
  // worker gave the values once.
  expect(signedIn).toMatchObject({
    sub: 'user:olivia', stateMatches: true, issuerMatches: true, nonceMatches: true, secondTake: null,
  });
  // The answer (code, state) left the history entry, not only the address bar.
  expect(page.url()).toBe(probe);
  await page.goBack();
  expect(page.url()).not.toContain('code=');
  await page.goForward();
  expect(page.url()).toBe(probe);
  await outcome(page, 'ready');
  // No cookie of the console's origin (the provider's are its own site's).
  expect(await context.cookies(baseURL!)).toEqual([]);
  expect((await context.cookies(issuer)).length).toBeGreaterThan(0);
});

test('a silent sign-in finds the provider\'s session without a form; after signing out, login_required', async ({ page }) => {
  await signIn(page, 'curator');
  const forms: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().includes('/interaction/')) forms.push(frame.url());
  });
  await press(page, 'Silent sign-in');
  expect(await outcome(page, 'signed-in')).toMatchObject({
    sub: 'user:curator', stateMatches: true, nonceMatches: true, secondTake: null,
  });
  expect(forms, 'prompt=none shows no page of the provider').toEqual([]);
  // RP-initiated logout: a POST form (the ID token in no URL), no question, back at the console.
  await press(page, 'Sign out');
  await outcome(page, 'ready');
  await press(page, 'Silent sign-in');
  expect(await outcome(page, 'error')).toMatchObject({ error: 'login_required', stateMatches: true });
});

test('a worker stopped while the page was away has nothing: the one-click sign-in is offered', async ({ page, context }) => {
  await page.goto('probe/');
  await outcome(page, 'ready');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  // What a browser does to an idle worker (its memory goes with it).
  const devtools = await context.newCDPSession(page);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await page.getByLabel('Username').fill('olivia');
  await page.getByLabel('Password').fill('olivia-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await outcome(page, 'nothing-pending');
  await expect(page.getByRole('button', { name: 'Sign in with the identity provider' })).toBeVisible();
  // That click signs in, the provider's session skipping its form.
  await page.getByRole('button', { name: 'Sign in with the identity provider' }).click();
  expect(await outcome(page, 'signed-in')).toMatchObject({ sub: 'user:olivia', nonceMatches: true });
});

test('an answer this tab did not ask for finds nothing, and leaves the address', async ({ page, baseURL }) => {
  await page.goto('probe/#code=made-up&state=AAAAAAAAAAAAAAAAAAAAAA&iss=http%3A%2F%2Flocalhost%3A1');
  await outcome(page, 'nothing-pending');
  expect(page.url()).toBe(`${baseURL}probe/`);
});
