import { test, expect } from './fixtures';
import { armFault, signInCurator as signIn, goInApp as visit } from './helpers';

// Issue 39 item 5: reference fields (guide, organization, textbook, parent) are pickers: a few
// letters of a title find the record (a word's beginning: "medit" finds the Mediterranean guide,
// which production's full-text autocomplete cannot), its URN is stored; a URN that names no
// record is shown as stored, marked; a picker whose search fails leaves the field to type.

test('a guideline\'s guide is chosen by title from a word\'s beginning; the URN is stored', async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/guidelines/new');
  const field = page.locator('.field[data-field="guide_urn"]');
  const find = field.getByRole('combobox');
  await find.fill('medit');
  const options = field.getByRole('option');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('The Mediterranean Diet: A Guide for Families');
  await find.press('ArrowDown');
  await expect(find).toHaveAttribute('aria-activedescendant', /found-0$/);
  await find.press('Enter');
  await expect(field.locator('input[type="text"]')).toHaveValue('urn:guide:mediterranean-diet-guide');
  await expect(field.locator('.reference-title')).toHaveText('The Mediterranean Diet: A Guide for Families');
  await expect(options).toHaveCount(0);
});

test('an article\'s organization is found by two beginnings and chosen by mouse; an unknown URN is marked', async ({ page }) => {
  await signIn(page);
  // Two words, each a beginning; the mouse chooses as well.
  await visit(page, '/records/articles/new');
  const organization = page.locator('.field[data-field="organization_urn"]');
  await organization.getByRole('combobox').fill('nutr res');
  await organization.getByRole('option', { name: /Nutrition Research Institute/ }).click();
  await expect(organization.locator('input[type="text"]')).toHaveValue('urn:organization:nutrition-research-institute');

  // A URN that names no record is kept as typed, and marked.
  await organization.locator('input[type="text"]').fill('urn:organization:long-gone');
  await expect(organization.locator('.reference-title')).toContainText('No record has this URN; it is kept as stored.');
  await expect(organization.locator('.badge.unresolved')).toBeVisible();
});

test('a picker whose search fails says so, and the URN can still be typed', async ({ page, request }) => {
  await signIn(page);
  await visit(page, '/records/guidelines/new');
  await armFault(request, 'POST', '/api/v1/guides/search', [{ kind: 'status', status: 400 }]);
  const field = page.locator('.field[data-field="guide_urn"]');
  await field.getByRole('combobox').fill('eat');
  await expect(field.locator('.reference-failed [role="alert"]')).toBeVisible();
  await expect(field.getByText('Type or paste the URN in the field above.')).toBeVisible();
  await field.locator('input[type="text"]').fill('urn:guide:eat-well-2024');
  await expect(field.locator('.reference-title')).not.toHaveText('');
  await expect(field.locator('.badge.unresolved')).toHaveCount(0);
});
