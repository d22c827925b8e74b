import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, goInApp, signIn, failOnPageErrors } from './helpers';

// Text from the service is data: markup, scripts and `javascript:` URLs in any field render inert.
const payloads = {
  img: '<img src=x onerror="window.__xss=1">',
  script: '<script>window.__xss=2</script>',
  url: 'javascript:window.__xss=3',
  highlight: '<em>vitamin</em><img src=x onerror="window.__xss=4">',
};

async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('a[href^="javascript:"], img[src="x"], [onerror]').count()).toBe(0);
}

test('script payloads in records, households, members and profiles render as text', async ({ page, request }) => {
  const noErrors = failOnPageErrors(page);
  page.on('dialog', (dialog) => { throw new Error(`a dialog opened: ${dialog.message()}`); });

  const curator = { Authorization: `Bearer ${await apiToken(request, 'curator', 'curator-demo')}` };
  const slug = `xss-${Date.now()}`;
  const created = await request.post(api('articles'), {
    headers: curator,
    data: {
      urn: slug, title: `${payloads.img} vitamin study`, abstract: payloads.script, content: `${payloads.highlight} vitamin`,
      keywords: [payloads.url, payloads.img], authors: [payloads.script], doi: payloads.url, extras: { note: payloads.img },
      x_unknown: payloads.script,
    },
  });
  expect(created.status()).toBe(201);

  await signIn(page, 'curator', 'curator-demo');
  await goInApp(page, `records/articles?q=${encodeURIComponent('vitamin study')}`);
  await expect(page.getByText(`${payloads.img} vitamin study`).first()).toBeVisible();
  await expectInert(page);
  await goInApp(page, `records/articles/urn:article:${slug}`);
  await expect(page.getByText(payloads.script).first()).toBeVisible();
  await expect(page.getByText(payloads.url).first()).toBeVisible();
  await expectInert(page);

  const noah = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
  const household = await request.post(api('households'), {
    headers: noah,
    data: { name: payloads.img, region: payloads.script, metadata: { note: payloads.highlight }, members: [{ name: payloads.script, age_group: 'adult', image_url: payloads.url }] },
  });
  expect(household.status()).toBe(201);
  const householdId = (await household.json()).result.id;
  const members = (await (await request.get(api(`members?household_id=${householdId}`), { headers: noah })).json()).result;
  const profile = await request.post(api(`members/${members[0].id}/profile`), {
    headers: noah, data: { dietary_groups: ['vegan'], nutritional_preferences: { note: payloads.img }, allergies: [payloads.url] },
  });
  expect(profile.status()).toBe(201);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByRole('heading', { name: payloads.img })).toBeVisible();
  await expect(page.getByText(payloads.highlight)).toBeVisible();
  await expectInert(page);
  await page.getByRole('link', { name: payloads.script }).click();
  await expect(page.getByRole('list', { name: 'Chosen allergies' })).toContainText(payloads.url);
  await expect(page.getByLabel('Value')).toHaveValue(payloads.img);
  await expectInert(page);
  noErrors();

  // Leave noah without a household, and the knowledge base without the payload.
  expect((await request.delete(api(`households/${householdId}`), { headers: noah })).status()).toBe(200);
  expect((await request.delete(api(`articles/${slug}`), { headers: curator })).status()).toBe(200);
});
