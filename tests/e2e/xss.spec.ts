import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, bundleFiles, createRecord, goInApp, holdBack, signIn, typeCredentials } from './helpers';

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
  page.on('dialog', (dialog) => { throw new Error(`a dialog opened: ${dialog.message()}`); });

  const curator = { Authorization: `Bearer ${await apiToken(request, 'curator', 'curator-demo')}` };
  const slug = `xss-${Date.now()}`;
  await createRecord(request, curator.Authorization.slice(7), 'articles', {
    urn: slug, title: `${payloads.img} vitamin study`, abstract: payloads.script, content: `${payloads.highlight} vitamin`,
    keywords: [payloads.url, payloads.img], authors: [payloads.script], doi: payloads.url, extras: { note: payloads.img },
    venue: payloads.img,
  });

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
  expect(household.ok()).toBeTruthy();
  const householdId = (await household.json()).result.id;
  const members = (await (await request.get(api(`members?household_id=${householdId}`), { headers: noah })).json()).result;
  const profile = await request.post(api(`members/${members[0].id}/profile`), {
    headers: noah, data: { dietary_groups: ['vegan'], nutritional_preferences: { note: payloads.img }, allergies: [payloads.url] },
  });
  expect(profile.ok()).toBeTruthy();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'noah', 'noah-demo');
  await page.getByRole('link', { name: 'My household' }).first().click();
  await expect(page.getByRole('heading', { name: payloads.img })).toBeVisible();
  await expect(page.getByText(payloads.highlight)).toBeVisible();
  await expectInert(page);
  await page.getByRole('link', { name: payloads.script }).click();
  await expect(page.getByRole('list', { name: 'Other allergies' })).toContainText(payloads.url);
  await expect(page.getByLabel('Value')).toHaveValue(payloads.img);
  await expectInert(page);

  // Leave noah without a household, and the knowledge base without the payload.
  expect((await request.delete(api(`households/${householdId}`), { headers: noah })).status()).toBe(200);
  expect((await request.delete(api(`articles/${slug}`), { headers: curator })).status()).toBe(200);
});

// The start-up module shows the household's names before the console arrives
// (crates/start/src/web/preview.rs): text there too.
test('script payloads in a household\'s names render as text before the console arrives', async ({ page, request }) => {
  page.on('dialog', (dialog) => { throw new Error(`a dialog opened: ${dialog.message()}`); });
  const noah = { Authorization: `Bearer ${await apiToken(request, 'noah', 'noah-demo')}` };
  const household = await request.post(api('households'), {
    headers: noah, data: { name: payloads.img, members: [{ name: payloads.script, age_group: 'adult' }] },
  });
  expect(household.ok()).toBeTruthy();
  try {
    const release = await holdBack(page, bundleFiles);
    await page.goto('household');
    await typeCredentials(page, 'noah');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const preview = page.locator('#boot-preview');
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(payloads.img);
    await expect(preview.getByRole('listitem')).toHaveText([payloads.script]);
    await expectInert(page);
    release();
    await expect(page.getByRole('button', { name: 'Edit household' })).toBeVisible();
    await expectInert(page);
  } finally {
    const id = (await household.json()).result.id;
    expect((await request.delete(api(`households/${id}`), { headers: noah })).status()).toBe(200);
  }
});

test('script payloads in guides, guidelines, textbooks, passages, food tables and artifacts render as text', async ({ page, request }) => {
  page.on('dialog', (dialog) => { throw new Error(`a dialog opened: ${dialog.message()}`); });
  const admin = { Authorization: `Bearer ${await apiToken(request, 'admin', 'admin-demo')}` };
  const tag = `xss${Date.now()}`;
  const all = Object.values(payloads);
  const text = (i: number) => `${all[i % all.length]} ${tag}`;
  const post = (path: string, data: object) => createRecord(request, admin.Authorization.slice(7), path, data);
  const guide = await post('guides', {
    urn: `${tag}-guide`, title: text(0), short_title: text(1), description: text(2), content: text(3), notes: text(1), tags: all,
  });
  const guideline = await post('guidelines', {
    guide_urn: guide.urn, title: text(1), rule_text: text(0), notes: text(3), quantity: { operator: 'eq', value: 1, unit: text(2) },
    sequence_no: 1, status: 'draft', review_status: 'unreviewed',
  });
  const textbook = await post('textbooks', {
    urn: `${tag}-book`, title: text(2), subtitle: text(0), publisher: text(1), description: text(3), keywords: all, page_count: 2,
  });
  const fctable = await post('fctables', {
    urn: `${tag}-table`, title: text(3), database_name: text(0), compiling_institution: text(1), description: text(2), tags: all,
  });
  const upload = await request.post(api('artifacts/upload'), {
    headers: admin,
    multipart: { parent_urn: textbook.urn, title: text(0), description: text(2), file: { name: `${payloads.img}.txt`, mimeType: 'text/plain', buffer: Buffer.from('x') } },
  });
  expect(upload.ok()).toBeTruthy();
  const artifact = (await upload.json()).result;
  const replaced = await request.post(api(`textbook-passages/by-textbook/${textbook.urn}/replace`), {
    headers: admin,
    data: { artifact_id: artifact.id, passages: [{ page_no: 1, text: text(3), char_start: 0, char_end: 10 }], structure_tree: { roots: [{ id: 'n', title: text(0), kind: 'chapter', page_start: 1, page_end: 2, children: [] }] } },
  });
  expect(replaced.ok()).toBeTruthy();
  const passages = (await (await request.get(api(`textbook-passages/by-textbook/${textbook.urn}`), { headers: admin })).json()).result;

  await signIn(page, 'admin', 'admin-demo');
  const pages = [
    `records/guides?q=${tag}`, `records/guides/${guide.urn}`,
    `records/guidelines?q=${tag}`, `records/guidelines/${guideline.id}`,
    `records/textbooks?q=${tag}`, `records/textbooks/${textbook.urn}`,
    `records/textbook-passages?parent=${encodeURIComponent(textbook.urn)}`, `records/textbook-passages/${passages[0].id}`,
    `records/fctables?q=${tag}`, `records/fctables/${fctable.urn}`,
    `records/artifacts/${artifact.id}`,
  ];
  for (const path of pages) {
    await goInApp(page, path);
    // The payload shows as text (every record here carries one in its title or text).
    // (Visible ones only: the passages tab's textbook picker holds the title in a closed <select>.)
    const shown = page.getByText(new RegExp(`(<img|<script|javascript:|<em>).*${tag}`)).filter({ visible: true });
    await expect(shown.first(), path).toBeVisible();
    await expectInert(page);
  }
  await goInApp(page, `records/textbooks/${textbook.urn}`);
  await expect(page.getByRole('navigation', { name: 'Table of contents' })).toContainText(payloads.img);
  await expectInert(page);

  for (const path of [`guides/${guide.urn}`, `textbooks/${textbook.urn}`, `fctables/${fctable.urn}`]) {
    expect((await request.delete(api(path), { headers: admin })).status()).toBe(200);
  }
});
