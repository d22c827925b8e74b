import { test, expect } from './fixtures';
import { signIn, screens, unique, visit } from './records-common';

test("a guide's guidelines: created with the guide filled in, ordered by sequence, searched", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/guides');
  await page.getByRole('link', { name: 'Eat Well: National Dietary Guidelines 2024' }).click();
  const list = page.locator('ol.guidelines > li');
  await expect(list.first()).toContainText('Eat at least five portions');
  await screens(page, 'guide-detail');

  // Create: the guide's URN is filled in; sequence 0 puts it first.
  const title = unique('Journey rule');
  await page.getByRole('link', { name: 'New guideline' }).click();
  await expect(page.getByLabel('Guide URN')).toHaveValue('urn:guide:eat-well-2024');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Rule text').fill('Eat a journey portion of lentils every day.');
  await page.getByLabel('Sequence no').fill('0');
  await page.getByLabel('Action type').selectOption('eat');
  await page.getByLabel('Food groups', { exact: true }).fill('protein_foods');
  await page.getByLabel('Food groups', { exact: true }).press('Enter');
  await page.getByRole('button', { name: 'Create guideline' }).click();
  await expect(page.getByRole('heading', { name: 'Eat Well: National Dietary Guidelines 2024', level: 1 })).toBeVisible();
  await expect(list.first()).toContainText(title);

  // Reorder: a sequence number of 99 moves it to the end.
  await list.first().getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Guide URN')).toHaveCount(0); // immutable: not an editor
  await page.getByLabel('Sequence no').fill('99');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('99', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the guide' }).click();
  await expect(page.getByRole('heading', { name: 'Eat Well: National Dietary Guidelines 2024', level: 1 })).toBeVisible();
  await expect(list.last()).toContainText(title);
  await expect(list.first()).toContainText('Eat at least five portions');

  // Delete it from its own page: back on the guide, it is gone.
  await list.last().getByRole('link', { name: title }).click();
  await page.getByRole('button', { name: 'Delete guideline' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'Eat Well: National Dietary Guidelines 2024', level: 1 })).toBeVisible();
  await expect(list.first()).toContainText('Eat at least five portions');
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);

  // Search within the guide.
  await page.getByLabel("Search this guide's guidelines").fill('salt');
  await page.getByRole('button', { name: 'Search guidelines' }).click();
  await expect(list).toHaveCount(1);
  await expect(list.first().locator('em.hit')).toHaveText(/salt/i);
});
