import { expect, Page, APIRequestContext } from '@playwright/test';

// Shared steps of the knowledge-base journeys.

export async function signIn(page: Page, username = 'curator', password = 'curator-demo') {
  await page.goto('sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
}

/** Full-page screenshots at 1280 and 390 px wide. */
export async function screens(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Let the relayout after the resize settle, or a full-page capture can catch it half-painted.
    await page.waitForTimeout(250);
    await page.screenshot({ path: `target/playwright/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A bearer token for direct API calls (set-up and checks the console cannot make). */
export async function apiToken(request: APIRequestContext, username = 'curator', password = 'curator-demo') {
  const login = await request.post('/api/v1/system/login', { data: { username, password } });
  expect(login.ok()).toBeTruthy();
  const result = (await login.json()).result;
  return (result.token ?? result.access_token ?? result.jwt) as string;
}

/** A slug no earlier run has used. */
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** Goes to a path inside the console without reloading (a reload signs out: the token lives in memory). */
export async function visit(page: Page, path: string) {
  await page.evaluate((p) => {
    // Relative to the document's base: the console may be hosted under a sub-path.
    history.pushState({}, '', new URL(p.replace(/^\/+/, ''), document.baseURI).href);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
}
