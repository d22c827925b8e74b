import { test, expect } from '@playwright/test';
import { signIn, screens, visit } from './records-common';

test("a textbook's tree leads to a page's passages, and a bulk replace rewrites them", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/textbooks');
  await page.getByRole('link', { name: 'Foundations of Nutrition Science' }).click();
  const tree = page.getByRole('tree', { name: 'Table of contents' });
  await expect(tree).toContainText('Part I. Nutrients');
  // A node's pages are one click away.
  const pagesButtons = tree.getByRole('button', { name: /^Show pages of / });
  await pagesButtons.nth(2).click();
  const chosen = page.getByRole('navigation', { name: 'Pages of the chosen section' });
  await expect(chosen.getByRole('button').first()).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('ol.passages > li').first()).toBeVisible();
  await expect(page.locator('ol.passages')).toContainText('Key terms on this page are listed in the glossary.');
  await screens(page, 'textbook');

  // Page by number.
  await page.getByLabel('Page', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Show page', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Page 1' })).toBeVisible();

  // Bulk replace: paste, preview, confirm, summary.
  const body = {
    extractor_name: 'journey',
    passages: [
      { page_no: 1, text: 'Replaced passage one of page one.', char_start: 0, char_end: 33 },
      { page_no: 1, text: 'Replaced passage two of page one.', char_start: 34, char_end: 67 },
      { page_no: 2, text: 'Replaced passage of page two.', char_start: 0, char_end: 28 },
    ],
  };
  await page.getByLabel('JSON', { exact: true }).fill(JSON.stringify(body));
  await expect(page.getByText('Ready: 3 passages on 2 pages.')).toBeVisible();
  await page.getByRole('button', { name: 'Replace…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Replace passages' }).click();
  await expect(page.getByText(/Replaced: 3 passages stored/)).toBeVisible();
  await page.getByRole('button', { name: 'Show page', exact: true }).click();
  await page.getByLabel('Page', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Show page', exact: true }).click();
  await expect(page.locator('ol.passages')).toContainText('Replaced passage of page two.');
  await expect(page.locator('ol.passages > li')).toHaveCount(1);
});
