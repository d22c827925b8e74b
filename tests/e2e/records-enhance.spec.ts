import { test, expect } from './fixtures';
import { apiToken, createRecord, production, signInCurator as signIn, unique, goInApp as visit } from './helpers';

const CONTENT = 'Sodium reduction lowers blood pressure. Potassium intake from vegetables helps too. Salt in processed foods matters most.';

test('an enhancement records what an agent derived, and the record shows it', async ({ page, request }) => {
  const slug = unique('journey-enhance');
  await createRecord(request, await apiToken(request), 'articles', { urn: slug, title: 'Journey enhance article', content: CONTENT });
  await signIn(page);
  await visit(page, `/records/articles/urn:article:${slug}`);
  await expect(page.getByRole('heading', { name: 'Enhance', exact: true })).toBeVisible();
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue('larder-console');

  // Nothing changed: said before anything is sent.
  await page.getByRole('button', { name: 'Save enhancement' }).click();
  await expect(page.getByText('Change at least one of the fields')).toBeVisible();

  await page.getByLabel('AI category').fill('cardiometabolic health');
  await page.getByLabel('AI tags').fill('sodium\nblood pressure');
  const sent = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/enhance'));
  await page.getByRole('button', { name: 'Save enhancement' }).click();
  // Production's body: the agent and the values, nothing else.
  expect((await sent).postDataJSON()).toEqual({
    agent: 'larder-console',
    fields: { ai_category: 'cardiometabolic health', ai_tags: ['sodium', 'blood pressure'] },
  });
  // The answer is a summary: the record is read again and the change listed.
  const outcome = page.locator('.enhanced');
  await expect(outcome).toContainText(/Changed 2 fields in run/);
  await expect(outcome.getByRole('cell', { name: 'AI category' })).toBeVisible();
  await expect(outcome.getByRole('cell', { name: 'AI tags' })).toBeVisible();
  await page.getByRole('button', { name: 'Show the updated record' }).click();
  await expect(page.locator('dl.fields')).toContainText('cardiometabolic health');

  // What the contract refuses is said beside the field, and not sent.
  await page.getByLabel('AI category').fill('x'.repeat(2001));
  await page.getByRole('button', { name: 'Save enhancement' }).click();
  await expect(page.getByText('At most 2000 characters.')).toBeVisible();
});

test('a machine client with the agent role enhances where the service offers it, and may not edit', async ({ page, request }) => {
  const slug = unique('journey-enhance-guide');
  // Verified and active, so a caller without a curator role may see it.
  await createRecord(request, await apiToken(request, 'admin', 'admin-demo'), 'guides', {
    urn: slug, title: 'Journey enhance guide', content: CONTENT, status: 'active', review_status: 'verified',
  });
  await page.goto('sign-in');
  await page.getByLabel('A machine client').check();
  await page.getByLabel('Client ID').fill('enhancer');
  await page.getByLabel('Client secret').fill('enhancer-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as enhancer')).toBeVisible();
  await visit(page, `/records/guides/urn:guide:${slug}`);
  await expect(page.getByRole('heading', { name: 'Journey enhance guide', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Enhance', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New guideline' })).toHaveCount(0);
  await page.getByLabel('AI category').fill('dietary patterns');
  await page.getByRole('button', { name: 'Save enhancement' }).click();
  if (production) {
    // Production enhances articles only: a quiet note, not an error.
    await expect(page.getByRole('status').filter({ hasText: 'This service does not offer enhancement for guides.' })).toBeVisible();
    await expect(page.locator('.error[role=alert]')).toHaveCount(0);
  } else {
    await expect(page.locator('.enhanced')).toContainText('Changed 1 field');
  }
});
