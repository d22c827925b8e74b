import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { apiToken, createRecord, goInApp, scan, scanBothSchemes, signIn, signInCurator, TEXTBOOK_REPLACEMENT, unique, uploadFile } from './helpers';

// The console in English, Hungarian, Slovenian and Greek: the browser's language chooses, the
// header switches without a reload, numbers and dates come from the browser's Intl; every page
// and dialog passes axe-core's WCAG 2.2 A/AA rules in every language and both themes; and the
// keyboard behaves: focus to the new page's heading, dialogs that hold and return the focus.

const LANGUAGES = [
  { locale: 'hu-HU', lang: 'hu', signIn: 'Bejelentkezés', members: 'Tagok (3)', profile: 'Étrendi profil', articles: 'Cikkek', found: '2 találat', adult: 'felnőtt' },
  { locale: 'sl-SI', lang: 'sl', signIn: 'Prijava', members: 'Člani (3)', profile: 'Prehranski profil', articles: 'Članki', found: '2 zadetka', adult: 'odrasla oseba' },
  { locale: 'el-GR', lang: 'el', signIn: 'Σύνδεση', members: 'Μέλη (3)', profile: 'Διατροφικό προφίλ', articles: 'Άρθρα', found: '2 αποτελέσματα', adult: 'ενήλικας' },
];

/** Signs in through index.html's form, whatever the language. */
async function signInAny(page: Page, username: string, password: string) {
  await page.goto('sign-in');
  await page.locator('#boot-name').fill(username);
  await page.locator('#boot-secret').fill(password);
  // The form is there before the start-up module; until it has taken over, the button is
  // disabled and Enter submits nothing (by design, sign-in.spec.ts). Under load that can be
  // seconds, so wait for the button as a person waits for it.
  await expect(page.locator('#boot-shell button[type=submit]')).toBeEnabled();
  await page.locator('#boot-secret').press('Enter');
  await expect(page.locator('.who')).toContainText(username);
}

for (const l of LANGUAGES) {
  test.describe(`in ${l.lang}`, () => {
    test.use({ locale: l.locale });

    test(`${l.lang}: sign-in, household, member and a list in the browser's language`, async ({ page }) => {
      await page.goto('sign-in');
      await expect(page.locator('html')).toHaveAttribute('lang', l.lang);
      await expect(page.getByRole('button', { name: l.signIn })).toBeEnabled();
      await expect(page.getByRole('heading', { name: l.signIn, level: 1 })).toBeVisible();
      await signInAny(page, 'olivia', 'olivia-demo');

      await goInApp(page, '/household');
      await expect(page.getByRole('heading', { name: 'The Parkers', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: l.members })).toBeVisible();
      await expect(page.locator('.member-list')).toContainText(l.adult);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `target/playwright/screens/household-${l.lang}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.locator('.member-list a').first().click();
      await expect(page.getByRole('heading', { name: l.profile })).toBeVisible();

      // A plural: two hits ("2 zadetka" is Slovenian's dual).
      await goInApp(page, '/records/articles?q=vitamin');
      await expect(page.getByRole('heading', { name: l.articles, level: 1 })).toBeVisible();
      await expect(page.locator('p.total')).toHaveText(l.found);

      // A date and a number, the language's way (as the browser's own Intl writes them).
      await goInApp(page, '/records/articles/urn:article:vitamin-d-bone-health');
      const date = await page.evaluate((lang) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2015-01-01')), l.lang);
      await expect(page.locator('dl.fields')).toContainText(date);
      await expect(page.locator('dl.fields')).not.toContainText('2015-01-01');
      await goInApp(page, '/records/fctables/urn:fctable:nordic-fct-2023');
      await expect(page.locator('dl.fields')).toContainText('92,5');
    });
  });
}

test('switching the language in the header keeps a half-filled form and reloads nothing', async ({ page }) => {
  await signIn(page, 'olivia', 'olivia-demo');
  await goInApp(page, '/household');
  await page.getByRole('button', { name: 'Edit household' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Half typed');
  await page.evaluate(() => { (window as unknown as { __stay: boolean }).__stay = true; });

  await page.getByRole('combobox', { name: 'Language' }).selectOption('hu');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await expect(page.getByLabel('Név', { exact: true })).toHaveValue('Half typed');
  await expect(page.getByRole('button', { name: 'Háztartás mentése' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Nyelv' })).toHaveValue('hu');
  expect(await page.evaluate(() => (window as unknown as { __stay?: boolean }).__stay)).toBe(true);
  // Remembered as a preference (not a secret): the next visit starts in Hungarian.
  expect(await page.evaluate(() => localStorage.getItem('larder.language'))).toBe('hu');
  await page.getByRole('combobox', { name: 'Nyelv' }).selectOption('sl');
  await expect(page.getByLabel('Ime', { exact: true })).toHaveValue('Half typed');
});

test('focus moves to the new page\'s heading; a dialog takes, holds and returns the focus', async ({ page }) => {
  await signIn(page, 'olivia', 'olivia-demo');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My household' }).click();
  await expect(page.getByRole('heading', { name: 'The Parkers', level: 1 })).toBeFocused();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge base' }).click();
  await expect(page.getByRole('heading', { name: 'Articles', level: 1 })).toBeFocused();

  await goInApp(page, '/household');
  const opener = page.getByRole('button', { name: 'Delete household' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Tab and Shift+Tab stay inside.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete household' })).toBeFocused();
  // Past the last button the focus wraps to the first control: the first day of the meal plans
  // that "Download my data", offered before the choice, would read.
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('From')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Delete household' })).toBeFocused();
  // Escape closes it, and the focus is back on what opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expect(page.getByRole('heading', { name: 'The Parkers', level: 1 })).toBeVisible();
});


for (const lang of ['en', 'hu', 'sl', 'el']) {
  test(`axe-core finds no WCAG 2.2 A/AA violation on any page or dialog (${lang}, light and dark)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript((l) => localStorage.setItem('larder.language', l), lang);
    const at = (name: string) => `${name} (${lang})`;
    await page.goto('sign-in');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.locator('#boot-shell form button')).toBeEnabled();
    await scanBothSchemes(page, at('the sign-in form'));
    await page.locator('#boot-name').fill('admin');
    await page.locator('#boot-secret').fill('admin-demo');
    await page.locator('#boot-secret').press('Enter');
    await expect(page.locator('.who')).toContainText('admin');
    await scanBothSchemes(page, at('the start page'));
    for (const [path, ready] of [
      ['/households', 'table.records tbody tr'],
      ['/status', '[data-testid="embeddings"] tbody tr'],
      ['/overview', '.overview-card[data-collection="guides"] .overview-total'],
      ['/records/articles', 'table.records tbody tr'],
      ['/records/articles?q=vitamin', 'p.total'],
      ['/records/articles/urn:article:vitamin-d-bone-health', 'dl.fields'],
      ['/records/articles/new', 'form.record-form'],
      ['/records/guides/urn:guide:eat-well-2024', 'dl.fields'],
      ['/records/textbook-passages', '#records-parent'],
      ['/no-such-page', 'h1'],
    ] as const) {
      await goInApp(page, path);
      await expect(page.locator(ready).first()).toBeVisible();
      await scanBothSchemes(page, at(path));
    }
    // The list's Export panel (the household's "Download my data" is on the household page
    // and in the member's delete dialog below).
    await goInApp(page, '/records/articles?q=vitamin');
    await expect(page.locator('p.total')).toBeVisible();
    await page.locator('.export > button').click();
    await expect(page.locator('#export-panel')).toBeVisible();
    await scanBothSchemes(page, at('the export panel'));
    // The administrator's view of a household, its member, and a confirmation dialog.
    await goInApp(page, '/households?limit=100&offset=0');
    await page.getByRole('link', { name: 'The Parkers' }).click();
    await expect(page.locator('.member-list li').first()).toBeVisible();
    await scanBothSchemes(page, at('a household'));
    await page.locator('.member-list a').first().click();
    await expect(page.locator('#profile-title')).toBeVisible();
    await scanBothSchemes(page, at('a member'));
    await page.locator('.actions button.danger').first().click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await scanBothSchemes(page, at('a confirmation dialog'));
    await page.keyboard.press('Escape');
    // A phone's header with its menu open.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.menu-toggle').click();
    await scanBothSchemes(page, at('the phone menu'));
    await page.setViewportSize({ width: 1280, height: 900 });
  });
}

test('the Not allowed page, the create-household form and the re-sign-in dialog pass axe-core', async ({ page }) => {
  await signIn(page, 'noah', 'noah-demo');
  await goInApp(page, '/households');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await scan(page, 'the Not allowed page');
  await goInApp(page, '/household');
  await expect(page.getByRole('heading', { name: 'Create your household' })).toBeVisible();
  await scan(page, 'the create-household form');
  // The re-sign-in dialog: the service refuses the token and its renewal once (nothing is stored).
  const refusal = { status: 401, contentType: 'application/json',
    body: JSON.stringify({ success: false, error: { title: 'AuthenticationError', detail: 'Token revoked.', code: 'auth/unauthorized' } }) };
  await page.getByLabel('Name', { exact: true }).fill('Scanned');
  await page.route('**/api/v1/households', (route) => route.fulfill(refusal), { times: 1 });
  await page.route('**/api/v1/system/login', (route) => route.fulfill(refusal), { times: 1 });
  await page.getByRole('button', { name: 'Create household' }).click();
  await expect(page.getByRole('dialog')).toContainText('Your session has ended');
  await scan(page, 'the re-sign-in dialog');
});

test("the knowledge base's pages, editors and dialogs pass axe-core (light and dark)", async ({ page, request }) => {
  test.setTimeout(180_000);
  // A textbook of its own with a file, so a bulk replace can be made ready without touching the demo one.
  const token = await apiToken(request);
  const slug = unique('axe-textbook');
  await createRecord(request, token, 'textbooks', { urn: slug, title: 'Axe textbook', page_count: 2 });
  await uploadFile(request, token, `urn:textbook:${slug}`, 'book.txt', Buffer.from('one two three'), 'Axe full text');
  await signInCurator(page);

  await goInApp(page, '/records/textbooks');
  await page.getByRole('link', { name: 'Foundations of Nutrition Science' }).click();
  const tree = page.getByRole('navigation', { name: 'Table of contents' });
  await tree.getByRole('button', { name: /^Show pages of / }).nth(2).click();
  await expect(page.locator('ol.passages > li').first()).toBeVisible();
  await scanBothSchemes(page, "a textbook's tree and a page's passages");

  await goInApp(page, `/records/textbooks/urn:textbook:${slug}`);
  await page.getByLabel('JSON', { exact: true }).fill(JSON.stringify(TEXTBOOK_REPLACEMENT));
  await expect(page.getByText('Ready: 3 passages on 2 pages, a structure tree of 1 node.')).toBeVisible();
  await scanBothSchemes(page, 'a bulk replace, ready');
  await page.getByRole('button', { name: 'Replace…' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await scanBothSchemes(page, "the bulk replace's confirmation");
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await goInApp(page, '/records/fctables/urn:fctable:nordic-fct-2023');
  await expect(page.locator('dl.fields')).toBeVisible();
  await scanBothSchemes(page, 'a food composition table');

  await goInApp(page, '/records/guides/urn:guide:healthy-plates-children');
  await page.getByRole('link', { name: 'New guideline' }).click();
  await expect(page.getByLabel('Rule text')).toBeVisible();
  await scanBothSchemes(page, 'the new guideline form');

  await goInApp(page, '/records/articles/urn:article:vitamin-d-bone-health');
  await expect(page.getByRole('heading', { name: 'Enhance', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Save enhancement' }).click();
  await expect(page.getByText('Change at least one of the fields')).toBeVisible();
  await scanBothSchemes(page, 'the enhance panel, with its error');
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await scanBothSchemes(page, "an article's edit form");
});
