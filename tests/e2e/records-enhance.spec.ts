import { test, expect } from '@playwright/test';
import { signIn, visit } from './records-common';

test('enhance an article and see what changed', async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/articles');
  await page.getByRole('link', { name: 'Sodium reduction and blood pressure' }).click();
  await expect(page.getByRole('heading', { name: 'Enhance' })).toBeVisible();
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue('extractive');
  await page.getByRole('button', { name: 'Run enhancement' }).click();
  const outcome = page.locator('.enhanced');
  await expect(outcome).toContainText(/Changed \d+ field\(s\) in run/);
  await expect(outcome.getByRole('cell', { name: 'AI tags' })).toBeVisible();
  await page.getByRole('button', { name: 'Show the updated record' }).click();
  await expect(page.locator('dl.fields')).toContainText('AI category');

  // An unknown agent is refused by the service, and said so.
  await page.getByLabel('Agent', { exact: true }).fill('oracle');
  await page.getByRole('button', { name: 'Run enhancement' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'unknown agent' })).toBeVisible();
});
