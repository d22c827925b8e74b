import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { signInCurator as signIn, screenshots as screens, unique, goInApp as visit } from './helpers';

// For each main collection: create, find by search, open, edit, delete.
const cases = [
  { path: 'articles', singular: 'article', plural: 'Articles', extra: async (page: Page) => {
      // What production requires of an article, and the author its reads need.
      await page.getByLabel('Venue', { exact: true }).fill('Journey Journal');
      await page.getByLabel('Authors', { exact: true }).fill('J. Ourney');
      await page.getByLabel('Authors', { exact: true }).press('Enter');
      await page.getByLabel('Publication year').fill('2025');
      await page.getByLabel('Tags', { exact: true }).fill('journey');
      await page.getByLabel('Tags', { exact: true }).press('Enter');
    } },
  // Only administrators may delete guides (wire-notes), so this one runs as admin.
  { path: 'guides', singular: 'guide', plural: 'Guides', user: ['admin', 'admin-demo'], extra: async (page: Page) => {
      await page.getByLabel('Description', { exact: true }).fill('A guide made by a journey.');
      await page.getByLabel('URL', { exact: true }).fill('https://example.org/journey');
      await page.getByLabel('License', { exact: true }).selectOption('CC-BY-4.0');
      await page.getByLabel('Content', { exact: true }).fill('Eat well.');
      // An active guide must be verified first (production answers 409): a draft.
      await page.getByLabel('Status', { exact: true }).selectOption('draft');
      await page.getByLabel('Region').fill('FR');
      await page.getByLabel('Review status').selectOption('pending_review');
    } },
  { path: 'textbooks', singular: 'textbook', plural: 'Textbooks', extra: async (page: Page) => {
      await page.getByLabel('Publisher', { exact: true }).fill('Journey Press');
    } },
  { path: 'fctables', singular: 'food composition table', plural: 'Food composition tables', extra: async (page: Page) => {
      await page.getByLabel('Database name').fill('Journey DB');
      await page.getByLabel('Compiling institution').fill('Journey Institute');
      // Numbers are validated before anything is sent.
      await page.getByLabel('Number of entries').fill('many');
      await page.getByLabel('Completeness percent').fill('87.5');
      await page.getByRole('button', { name: 'Create food composition table' }).click();
      await expect(page.getByText('Enter a whole number, such as 2024.')).toBeVisible();
      await page.getByLabel('Number of entries').fill('120');
      await expect(page.getByText('Enter a whole number, such as 2024.')).toHaveCount(0);
    } },
  // Issue 39 item 6: organizations (production has no DELETE for them) and recipe collections.
  { path: 'organizations', singular: 'organization', plural: 'Organizations', noDelete: true, extra: async (page: Page) => {
      await page.getByLabel('Description', { exact: true }).fill('An organization made by a journey.');
      await page.getByLabel('URL', { exact: true }).fill('https://example.org/journey-org');
      await page.getByLabel('Contact email').fill('journey@example.org');
    } },
  { path: 'rcollections', singular: 'recipe collection', plural: 'Recipe collections', extra: async (page: Page) => {
      await page.getByLabel('Source type').selectOption('dataset');
    } },
];

for (const c of cases) {
  test(`${c.path}: create, find, open, edit${(c as { noDelete?: boolean }).noDelete ? '' : ', delete'}`, async ({ page }) => {
    const slug = unique(`journey-${c.path}`);
    const word = slug.replace(/[^a-z0-9]/g, '');
    const title = `Journey ${word} record`;
    await signIn(page, ...((c as { user?: [string, string] }).user ?? ['curator', 'curator-demo']));
    await visit(page, `/records/${c.path}`);
    await page.getByRole('link', { name: `New ${c.singular}` }).click();
    await expect(page.getByRole('heading', { name: `New ${c.singular}` })).toBeVisible();
    await page.getByLabel('URN slug').fill(slug);
    await page.getByLabel('Title', { exact: true }).fill(title);
    await c.extra(page);
    if (c.path === 'articles') await screens(page, 'record-new');
    await page.getByRole('button', { name: `Create ${c.singular}` }).click();

    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByText(slug, { exact: false }).first()).toBeVisible();
    if (c.path === 'articles') await screens(page, 'record-detail');
    if (c.path === 'guides') await expect(page.getByRole('heading', { name: 'Guidelines' })).toBeVisible();

    // Find it by search; the match is emphasised, the rest is text.
    await page.getByRole('link', { name: c.plural, exact: true }).first().click();
    await page.getByRole('searchbox').fill(word);
    await expect(page.getByText('1 found')).toBeVisible();
    const hit = page.getByRole('link', { name: title });
    await expect(hit).toBeVisible();
    await expect(page.locator('table.records em.hit').first()).toBeVisible();
    if (c.path === 'articles') await screens(page, 'records-search');
    await hit.click();

    // Edit: only the changed title is sent.
    await page.getByRole('button', { name: 'Edit' }).click();
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await page.getByLabel('Title', { exact: true }).fill(`${title} (edited)`);
    if (c.path === 'articles') await screens(page, 'record-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patch).postDataJSON()).toEqual({ title: `${title} (edited)` });
    await expect(page.getByRole('heading', { name: `${title} (edited)`, level: 1 })).toBeVisible();

    if ((c as { noDelete?: boolean }).noDelete) {
      // The service has no delete for these: none is offered.
      await expect(page.getByRole('button', { name: `Delete ${c.singular}` })).toHaveCount(0);
      return;
    }
    // Delete after confirmation.
    await page.getByRole('button', { name: `Delete ${c.singular}` }).click();
    await expect(page.getByRole('alertdialog')).toContainText('cannot be undone');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: c.plural, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `${title} (edited)` })).toHaveCount(0);
  });
}
