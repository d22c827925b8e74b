import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { scan } from './helpers';

// Issue 42 in the console: signing in at the identity provider (tests/oidc/provider.mjs, on
// localhost: another site) with larder-server --oidc-issuer accepting its tokens, the console on
// 127.0.0.1 with config.json's `oidc`. The fixture's leak check holds for each: no token, code
// verifier or refresh token at rest or in a URL. `cargo xtask journeys tests/e2e/oidc-console.spec.ts`.

const issuer = process.env.OIDC_ISSUER ?? '';
const provider = issuer ? new URL(issuer).host : '';
const providerButton = (page: Page) => page.getByRole('button', { name: `Sign in with ${provider}` });

/** Types `login`'s password at the provider's own form (the console is away meanwhile). */
async function atProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await page.getByLabel('Username').fill(login);
  await page.getByLabel('Password').fill(`${login}-demo`);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Page navigations of the main frame to the provider's sign-in form. */
function providerForms(page: Page): string[] {
  const forms: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(`${issuer}/interaction/`)) forms.push(frame.url());
  });
  return forms;
}

test.beforeAll(() => {
  expect(issuer, 'OIDC_ISSUER (cargo xtask journeys sets it)').toMatch(/^http:\/\/localhost:\d+$/);
});

test('signing in with the identity provider opens the page asked for, with nothing in the address', async ({ page, baseURL }) => {
  await page.goto('./');
  await expect(providerButton(page)).toBeVisible();
  // The password form stays beside it.
  await expect(page.getByLabel('Password')).toBeVisible();
  await scan(page, 'the sign-in form with an identity provider');
  await providerButton(page).click();
  await atProvider(page, 'curator');
  await expect(page.getByText('Signed in as curator')).toBeVisible();
  // The answer (code, state) left the address and the history entry.
  expect(page.url()).not.toMatch(/[#?&](code|state)=/);
  expect(page.url().startsWith(baseURL!)).toBe(true);
  await page.goBack();
  expect(page.url()).not.toMatch(/[#?&](code|state)=/);
});

test('a reload comes back signed in at the same page and query, without a form', async ({ page, baseURL }) => {
  await page.goto('./');
  await providerButton(page).click();
  await atProvider(page, 'curator');
  await expect(page.getByText('Signed in as curator')).toBeVisible();
  await page.goto('knowledge-base/articles?q=vitamin');
  const forms = providerForms(page);
  await expect(page.getByText('Signed in as curator')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Signed in as curator')).toBeVisible();
  expect(page.url()).toBe(`${baseURL}knowledge-base/articles?q=vitamin`);
  expect(forms, 'prompt=none shows no page of the provider').toEqual([]);
});

test('without a session at the provider, a load shows the sign-in form', async ({ page }) => {
  await page.goto('./');
  await expect(providerButton(page)).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
});

test('a new tab gets the session from a signed-in tab; signing out in one signs out both and the provider', async ({ page, context }) => {
  await page.goto('./');
  await providerButton(page).click();
  await atProvider(page, 'olivia');
  await expect(page.getByText('Signed in as olivia')).toBeVisible();
  const second = await context.newPage();
  const forms = providerForms(second);
  const providerVisits: string[] = [];
  second.on('request', (r) => { if (r.isNavigationRequest() && r.url().startsWith(issuer)) providerVisits.push(r.url()); });
  await second.goto('./');
  await expect(second.getByText('Signed in as olivia')).toBeVisible();
  expect(providerVisits, 'the channel, not the provider').toEqual([]);
  expect(forms).toEqual([]);

  await second.getByRole('button', { name: 'Sign out' }).click();
  await expect(providerButton(second)).toBeVisible();
  await expect(providerButton(page)).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
  // The provider's session ended too: a reload finds none.
  await page.reload();
  await expect(providerButton(page)).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
});
