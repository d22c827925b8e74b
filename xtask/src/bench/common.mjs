// What the bench's browser scripts share (`browser.mjs`, `restore.mjs`): a fresh headless
// Debian Chromium, the phone line, signing in and moving inside the app.
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
];

/** A browser with a fresh profile of its own; `locale` (such as `el-GR`) sets its language. */
export async function freshBrowser(locale) {
  const profile = mkdtempSync(join(tmpdir(), 'larder-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args: ARGS, viewport: { width: 1280, height: 900 },
    ...(locale ? { locale } : {}),
  });
  return {
    context,
    async close() { await context.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

/** Policy violations the page reports. */
export function watchViolations(page, into) {
  page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) into.push(m.text()); });
}

/** Lighthouse's mobile throttling: 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
export const MOBILE = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

/** Signs in through the page and keeps the wasm module's memory at `window.__wasmMemory`. */
export async function signedInPage(browser, consoleUrl, user, password, violations) {
  const page = browser.context.pages()[0] ?? await browser.context.newPage();
  watchViolations(page, violations);
  await page.addInitScript(() => {
    addEventListener('larder-started', (e) => { window.__wasmMemory = e.detail.wasm.memory; });
  });
  await page.goto(new URL('sign-in', consoleUrl).href);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${user}`).waitFor();
  return page;
}

/** Moves inside the app without a reload (a reload signs out). */
export async function goInApp(page, path) {
  await page.evaluate((p) => {
    const link = document.createElement('a');
    link.href = new URL(p, document.baseURI).href;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }, path);
}
