import { test, expect } from './fixtures';
import { goInApp, signIn, scanBothSchemes } from './helpers';

/** How far the page scrolls sideways (0 when it does not). */
const sidewaysScroll = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);

// Issue 40 item 4: text size and high contrast beside the theme, kept in the browser like the
// language; pages pass axe at each size and in high contrast, and stay usable on a phone.

test('text size and high contrast are chosen in Display, kept across a reload, and pages pass axe with them', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin', 'admin-demo');
  const display = page.locator('details.display-prefs');
  await display.locator('summary').click();
  await display.getByRole('radio', { name: 'Larger', exact: true }).check();
  await display.getByRole('checkbox', { name: 'High contrast' }).check();
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-text-size', 'larger');
  await expect(html).toHaveAttribute('data-contrast', 'high');
  expect(await html.evaluate((el) => getComputedStyle(el).fontSize)).toBe('24px');
  await scanBothSchemes(page, 'the Display panel, larger text, high contrast');
  await display.locator('summary').click();

  for (const [path, ready] of [
    ['/households?limit=10&offset=0', 'table.records tbody tr'],
    ['/overview', '.overview-card .overview-total'],
    ['/status', '[data-testid="embeddings"] tbody tr'],
    ['/records/guidelines?q=olive', 'table.records tbody tr'],
  ] as const) {
    await goInApp(page, path);
    await expect(page.locator(ready).first()).toBeVisible();
    await scanBothSchemes(page, `${path}, larger text, high contrast`);
  }
  for (const size of ['Normal', 'Large']) {
    await display.locator('summary').click();
    await display.getByRole('radio', { name: size, exact: true }).check();
    await display.locator('summary').click();
    await scanBothSchemes(page, `/records/guidelines, ${size} text, high contrast`);
  }

  // Kept like the language: a reload (which signs out) shows the sign-in page with them.
  await page.reload();
  await expect(html).toHaveAttribute('data-text-size', 'large');
  await expect(html).toHaveAttribute('data-contrast', 'high');
  await page.evaluate(() => { localStorage.removeItem('larder.text-size'); localStorage.removeItem('larder.contrast'); });
});

test('at 390 px wide with the largest text, and at 200 % text, pages do not scroll sideways', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('larder.text-size', 'larger'));
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the account is behind "Menu": signed in once the menu's toggle shows.
  await page.goto('sign-in');
  await page.locator('#boot-name').fill('admin');
  await page.locator('#boot-secret').fill('admin-demo');
  await page.locator('#boot-secret').press('Enter');
  await expect(page.locator('.menu-toggle')).toBeVisible();
  await expect(page.locator('.who')).toContainText('admin');
  await expect(page.locator('html')).toHaveAttribute('data-text-size', 'larger');
  for (const size of ['larger', '200 %']) {
    if (size === '200 %') {
      // WCAG's 200 % text, on a desktop's width: the browser's text size doubled (through the
      // CSSOM, as the page's policy allows no style attribute).
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
    }
    for (const [path, ready] of [
      ['/', 'h1'],
      ['/overview', '.overview-card .overview-total'],
      ['/status', '[data-testid="embeddings"]'],
      ['/households?limit=10&offset=0', 'form.household-search'],
      ['/records/guidelines?q=olive', 'table.records'],
      ['/records/guidelines/new', 'form'],
      ['/household', 'h1'],
      ['/households/allergies', 'h1'],
    ] as const) {
      await goInApp(page, path);
      // The page asked for, not the one before it (several share a heading, a table or a
      // form): one navigation at a time.
      await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      await expect(page.locator(ready).first()).toBeVisible();
      const sideways = await sidewaysScroll(page);
      expect(sideways, `${path}, ${size} text`).toBeLessThanOrEqual(0);
    }
    // A record's page, a household's page and a member's page, each reached by a first link.
    for (const [list, link] of [
      ['/records/guidelines?q=olive', 'table.records tbody a[href*="/records/guidelines/"]'],
      ['/households?limit=10&offset=0', 'table.records tbody a[href*="/households/"]'],
      [null, 'a[href*="/members/"]'],
    ] as const) {
      if (list) {
        await goInApp(page, list);
        await expect(page).toHaveURL(new RegExp(`${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      }
      const first = page.locator(link).first();
      await expect(first).toBeVisible();
      const href = (await first.getAttribute('href'))!;
      await first.click();
      await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      const sideways = await sidewaysScroll(page);
      expect(sideways, `${href}, ${size} text`).toBeLessThanOrEqual(0);
    }
  }
});

for (const lang of ['en', 'hu', 'sl', 'el']) {
  test(`the new pages pass axe at each text size in high contrast (${lang}, light and dark)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.addInitScript((l) => {
      localStorage.setItem('larder.language', l);
      localStorage.setItem('larder.contrast', 'high');
    }, lang);
    await page.goto('sign-in');
    await page.locator('#boot-name').fill('admin');
    await page.locator('#boot-secret').fill('admin-demo');
    await page.locator('#boot-secret').press('Enter');
    await expect(page.locator('.who')).toContainText('admin');
    await expect(page.locator('html')).toHaveAttribute('data-contrast', 'high');
    for (const size of ['normal', 'large', 'larger']) {
      await page.evaluate((s) => {
        if (s === 'normal') document.documentElement.removeAttribute('data-text-size');
        else document.documentElement.setAttribute('data-text-size', s);
      }, size);
      for (const [path, ready] of [
        ['/overview', '.overview-card[data-collection="guides"] .overview-total'],
        ['/status', '[data-testid="embeddings"] tbody tr'],
        ['/households?q=parker&limit=25&offset=0', 'form.household-search'],
      ] as const) {
        await goInApp(page, path);
        await expect(page.locator(ready).first()).toBeVisible();
        await scanBothSchemes(page, `${path}, ${size} text, high contrast (${lang})`);
      }
    }
  });
}
