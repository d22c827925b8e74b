// The browser half of `cargo xtask bench --only restore` (issue 41): "Download my data" of the
// source owner's household on the phone line, then, each run, that file restored through the
// console into the restorer's account (left without a household before each run, through the
// API), on the phone line: time from pressing Restore to the comparison's result, the API
// requests the page sent, and the result. Prints one JSON object on stdout.
//
//   node restore.mjs CONSOLE_URL RUNS SOURCE_USER SOURCE_PASSWORD RESTORER RESTORER_PASSWORD
import { readFileSync } from 'node:fs';
import { freshBrowser, watchViolations, MOBILE, signedInPage, goInApp } from './common.mjs';

const [consoleUrl, runsText, sourceUser, sourcePassword, restorer, restorerPassword] = process.argv.slice(2);
const runs = Number(runsText);
const origin = new URL(consoleUrl).origin;

/** The restorer without a household, as before any restore. */
async function removeRestorersHousehold() {
  const login = await fetch(`${origin}/api/v1/system/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: restorer, password: restorerPassword }),
  });
  const answer = (await login.json()).result;
  const headers = { authorization: `Bearer ${answer.token ?? answer.access_token}` };
  const own = await fetch(`${origin}/api/v1/households/me`, { headers });
  if (own.status === 404) return;
  const id = (await own.json()).result.id;
  const gone = await fetch(`${origin}/api/v1/households/${id}`, { method: 'DELETE', headers });
  if (!gone.ok) throw new Error(`the restorer's household could not be removed: ${gone.status}`);
}

async function throttle(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', MOBILE);
}

const out = { download_ms: 0, file_bytes: 0, members: 0, plans: 0, restore_ms: [], requests: [], results: [], violations: [] };

let file;
{
  const browser = await freshBrowser();
  try {
    const page = await signedInPage(browser, consoleUrl, sourceUser, sourcePassword, out.violations);
    await goInApp(page, 'household');
    const button = page.getByRole('button', { name: 'Download my data (JSON)' });
    await button.waitFor({ timeout: 120_000 });
    // The week seeded, from the service's today (UTC): the default days (the last 30 and the
    // next 7) would read 38 days of each member.
    const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(day(0));
    await page.getByLabel('To', { exact: true }).fill(day(6));
    await throttle(page);
    const started = Date.now();
    const [saved] = await Promise.all([page.waitForEvent('download', { timeout: 3600_000 }), button.click()]);
    const path = await saved.path();
    out.download_ms = Date.now() - started;
    file = readFileSync(path);
    await saved.delete();
    const parsed = JSON.parse(file.toString('utf8'));
    out.file_bytes = file.length;
    out.members = parsed.members.length;
    out.plans = parsed.members.reduce((n, m) => n + (m.meal_plans?.length ?? 0), 0);
  } finally {
    await browser.close();
  }
}

for (let run = 0; run < runs; run++) {
  await removeRestorersHousehold();
  const browser = await freshBrowser();
  try {
    const page = await signedInPage(browser, consoleUrl, restorer, restorerPassword, out.violations);
    watchViolations(page, out.violations);
    await goInApp(page, 'household');
    const input = page.locator('#restore-file');
    await input.waitFor({ state: 'attached', timeout: 120_000 });
    await input.setInputFiles({ name: 'household.json', mimeType: 'application/json', buffer: file });
    const restore = page.getByRole('button', { name: 'Restore', exact: true });
    await restore.waitFor({ timeout: 120_000 });
    await throttle(page);
    let requests = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname.includes('/api/v1/')) requests += 1; });
    const started = Date.now();
    await restore.click();
    const result = page.getByTestId('restore-result');
    const stopped = page.getByTestId('restore-stopped');
    await result.or(stopped).waitFor({ timeout: 3600_000 });
    if (await stopped.isVisible()) throw new Error(`the restore stopped: ${await page.locator('section[aria-labelledby="restore-title"]').textContent()}`);
    out.restore_ms.push(Date.now() - started);
    out.requests.push(requests);
    out.results.push((await result.textContent()).trim());
  } finally {
    await browser.close();
  }
}
process.stdout.write(JSON.stringify(out));
process.exit(0);
