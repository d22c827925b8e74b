import { test, expect } from './fixtures';
import { signInCurator as signIn, screenshots as screens, unique, goInApp as visit } from './helpers';

const GUIDE = 'Healthy Plates for Children Under Five';

test("a guide's guidelines: created with the guide filled in, ordered by sequence, searched", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/guides');
  await page.getByRole('link', { name: GUIDE }).click();
  const list = page.locator('ol.guidelines > li');
  await expect(list.first()).toContainText('Offer children three meals');
  await screens(page, 'guide-detail');

  // Create: the guide's URN is filled in; under an active guide a guideline is active and
  // verified (production answers 409 otherwise); without a number it goes last.
  const title = unique('Journey rule');
  await page.getByRole('link', { name: 'New guideline' }).click();
  await expect(page.getByLabel('Guide URN', { exact: true })).toHaveValue('urn:guide:healthy-plates-children');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Rule text').fill('Eat a journey portion of lentils every day.');
  await page.getByLabel('Status', { exact: true }).selectOption('active');
  await page.getByLabel('Review status').selectOption('verified');
  await page.getByLabel('Action type').selectOption('eat');
  await page.getByLabel('Food groups', { exact: true }).fill('protein_foods');
  await page.getByLabel('Food groups', { exact: true }).press('Enter');
  await page.getByRole('button', { name: 'Create guideline' }).click();
  await expect(page.getByRole('heading', { name: GUIDE, level: 1 })).toBeVisible();
  await expect(list.last()).toContainText(title);

  // Reorder: a number another guideline has is refused (409) and the form keeps it; a free
  // one is saved.
  await list.last().getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Guide URN', { exact: true })).toHaveCount(0); // not in the update allow-list
  await page.getByLabel('Sequence no').fill('1');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('form .error[role="alert"]')).toContainText('ConflictError');
  await expect(page.getByLabel('Sequence no')).toHaveValue('1');
  await page.getByLabel('Sequence no').fill('99');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('99', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the guide' }).click();
  await expect(page.getByRole('heading', { name: GUIDE, level: 1 })).toBeVisible();
  await expect(list.last()).toContainText(title);
  await expect(list.first()).toContainText('Offer children three meals');

  // Delete it from its own page: back on the guide, it is gone.
  await list.last().getByRole('link', { name: title }).click();
  await page.getByRole('button', { name: 'Delete guideline' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: GUIDE, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);

  // Search within the guide.
  await page.getByLabel("Search this guide's guidelines").fill('salt');
  await page.getByRole('button', { name: 'Search guidelines' }).click();
  await expect(list).toHaveCount(1);
  await expect(list.first().locator('em.hit')).toHaveText(/salt/i);
});
