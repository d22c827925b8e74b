import { test, expect } from './fixtures';
import { apiToken, signIn, unique, visit } from './records-common';

const CONTENT = 'Sodium reduction lowers blood pressure. Potassium intake from vegetables helps too. Salt in processed foods matters most.';

test('enhance an article and see what changed', async ({ page, request }) => {
  // A fresh article, so the agent has something to add however often the journey runs.
  const slug = unique('journey-enhance');
  const made = await request.post('/api/v1/articles', {
    headers: { Authorization: `Bearer ${await apiToken(request)}` },
    data: { urn: slug, title: 'Journey enhance article', content: CONTENT },
  });
  expect(made.ok()).toBeTruthy();
  await signIn(page);
  await visit(page, `/records/articles/urn:article:${slug}`);
  await expect(page.getByRole('heading', { name: 'Enhance', exact: true })).toBeVisible();
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

test('a machine client with the agent role enhances a guide it may not edit', async ({ page, request }) => {
  const slug = unique('journey-enhance-guide');
  const made = await request.post('/api/v1/guides', {
    headers: { Authorization: `Bearer ${await apiToken(request, 'admin', 'admin-demo')}` },
    // Verified and active, so a caller without a curator role may see it.
    data: { urn: slug, title: 'Journey enhance guide', content: CONTENT, status: 'active', review_status: 'verified' },
  });
  expect(made.ok()).toBeTruthy();
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
  await page.getByRole('button', { name: 'Run enhancement' }).click();
  await expect(page.locator('.enhanced')).toContainText(/Changed \d+ field\(s\)/);
});

test('enhance only the chosen fields', async ({ page, request }) => {
  const slug = unique('journey-enhance-some');
  const made = await request.post('/api/v1/articles', {
    headers: { Authorization: `Bearer ${await apiToken(request)}` },
    data: { urn: slug, title: 'Journey partial enhance', content: CONTENT },
  });
  expect(made.ok()).toBeTruthy();
  await signIn(page);
  await visit(page, `/records/articles/urn:article:${slug}`);
  const derive = page.getByRole('group', { name: 'Fields to derive' });
  // Nothing chosen: said before anything is sent.
  for (const name of ['AI tags', 'AI category', 'AI key takeaways']) await derive.getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run enhancement' }).click();
  await expect(page.getByText('Choose at least one field to derive.')).toBeVisible();
  await derive.getByLabel('AI category').check();
  const sent = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/enhance'));
  await page.getByRole('button', { name: 'Run enhancement' }).click();
  expect((await sent).postDataJSON()).toEqual({ agent: 'extractive', fields: ['ai_category'] });
  const outcome = page.locator('.enhanced');
  await expect(outcome).toContainText('Changed 1 field(s)');
  await expect(outcome.getByRole('cell', { name: 'AI category' })).toBeVisible();
  await expect(outcome.getByRole('cell', { name: 'AI tags' })).toHaveCount(0);
});
