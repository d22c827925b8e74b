import { test, expect } from './fixtures';
import { apiToken, createRecord, signInCurator as signIn, screenshots as screens, unique, uploadFile, goInApp as visit, armFault, TEXTBOOK_REPLACEMENT } from './helpers';

test("a textbook's tree leads to a page's passages", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/textbooks');
  await page.getByRole('link', { name: 'Foundations of Nutrition Science' }).click();
  const tree = page.getByRole('navigation', { name: 'Table of contents' });
  await expect(tree).toContainText('Part I. Nutrients');
  // A node's pages are one click away.
  const pagesButtons = tree.getByRole('button', { name: /^Show pages of / });
  await pagesButtons.nth(2).click();
  const chosen = page.getByRole('navigation', { name: 'Pages of the chosen section' });
  await expect(chosen.getByRole('button').first()).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('ol.passages > li').first()).toBeVisible();
  await expect(page.locator('ol.passages')).toContainText('Key terms on this page are listed in the glossary.');
  await screens(page, 'textbook');

  // A chapter's title folds and unfolds its sections, from the keyboard too.
  const chapter = tree.getByRole('button', { name: 'Chapter 1. Macronutrients', exact: true });
  await expect(chapter).toHaveAttribute('aria-expanded', 'true');
  await chapter.focus();
  await page.keyboard.press('Enter');
  await expect(chapter).toHaveAttribute('aria-expanded', 'false');
  await expect(tree.getByText('1.2 Proteins and fats')).toBeHidden();
  await page.keyboard.press('Space');
  await expect(chapter).toHaveAttribute('aria-expanded', 'true');

  // A chapter's Pages button opens its pages and leaves the chapter unfolded.
  await tree.getByRole('button', { name: 'Show pages of Chapter 1. Macronutrients' }).click();
  await expect(tree.getByText('1.2 Proteins and fats')).toBeVisible();
  await expect(chosen.getByRole('button', { name: '1', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // Page by number.
  await page.getByLabel('Page', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Show page', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Page 1' })).toBeVisible();
  await expect(page.locator('ol.passages > li')).toHaveCount(2);
});

test('a bulk replace: paste, preview, confirm, summary, and the pages show the new passages', async ({ page, request }) => {
  // A fresh textbook with one file, so the demo textbook stays as it is.
  const token = await apiToken(request);
  const slug = unique('journey-textbook');
  await createRecord(request, token, 'textbooks', { urn: slug, title: 'Journey replace textbook', page_count: 4 });
  const upload = await uploadFile(request, token, `urn:textbook:${slug}`, 'book.txt', Buffer.from('one two three'), 'Journey full text');

  await signIn(page);
  await visit(page, `/records/textbooks/urn:textbook:${slug}`);
  await expect(page.getByRole('heading', { name: 'Journey replace textbook', level: 1 })).toBeVisible();
  await expect(page.getByText('This textbook has no structure tree yet.')).toBeVisible();
  await expect(page.getByLabel('Artifact (file) the passages come from')).toHaveValue(upload.id);
  // A page past the textbook's 4 is said before anything is sent: production would delete the
  // file's passages first and then refuse the rest (production.md §5.2).
  const pastTheCount = { ...TEXTBOOK_REPLACEMENT, passages: [...TEXTBOOK_REPLACEMENT.passages, { page_no: 5, text: 'Too far.', char_start: 0, char_end: 8 }] };
  await page.getByLabel('JSON', { exact: true }).fill(JSON.stringify(pastTheCount));
  await expect(page.getByText('Passage 4 is on page 5, past the page count of 4')).toBeVisible();
  // Nothing to press: the replace is not offered until the pages fit.
  await expect(page.getByRole('button', { name: 'Replace…' })).toHaveCount(0);
  await page.getByLabel('JSON', { exact: true }).fill(JSON.stringify(TEXTBOOK_REPLACEMENT));
  await expect(page.getByText('Ready: 3 passages on 2 pages, a structure tree of 1 node.')).toBeVisible();
  await screens(page, 'bulk-replace');
  await page.getByRole('button', { name: 'Replace…' }).click();
  // The service is made to take 2 s, so the progress of the running replacement can be seen.
  await armFault(request, 'POST', `/api/v1/textbook-passages/by-textbook/urn:textbook:${slug}/replace`, [{ kind: 'delay', delay_ms: 2000 }]);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Replace passages' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Step 2 of 2: sent; the service is storing the passages' })).toBeVisible();
  await expect(page.getByText(/Replaced: 3 passages stored/)).toBeVisible();
  await expect(page.getByText(/structure tree updated/)).toBeVisible();
  await page.getByRole('button', { name: 'Show the new structure' }).click();
  const tree = page.getByRole('navigation', { name: 'Table of contents' });
  await expect(tree).toContainText('Journey chapter');
  await tree.getByRole('button', { name: 'Show pages of Journey chapter' }).click();
  await expect(page.locator('ol.passages > li')).toHaveCount(2);
  await expect(page.locator('ol.passages')).toContainText('Replaced passage two of page one.');
  await page.getByLabel('Page', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Show page', exact: true }).click();
  await expect(page.locator('ol.passages')).toContainText('Replaced passage of page two.');
  await expect(page.locator('ol.passages > li')).toHaveCount(1);
});

test("the passages tab lists a chosen textbook's passages, paged, by link", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/textbook-passages');
  await expect(page.getByText('Passages are kept per textbook')).toBeVisible();
  await page.getByLabel('Textbook', { exact: true }).selectOption('urn:textbook:foundations-of-nutrition-science');
  await expect(page).toHaveURL(/parent=urn%3Atextbook%3Afoundations-of-nutrition-science/);
  await screens(page, 'passages');
  const rows = page.locator('table.records tbody tr');
  await expect(rows).toHaveCount(25);
  await page.getByRole('button', { name: 'Next' }).click();
  // The second page is the rest: more than none, fewer than a page. Polled: the first page's
  // rows stay until the second page's answer arrives (CI on the production wire read them).
  await expect.poll(async () => { const n = await rows.count(); return n > 0 && n < 25; }).toBe(true);
  await rows.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('urn:textbook:foundations-of-nutrition-science').first()).toBeVisible();
});
