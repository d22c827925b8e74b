import { test, expect } from './fixtures';
import { createHash } from 'crypto';
import { readFile } from 'fs/promises';
import { apiToken, production, signInCurator as signIn, screenshots as screens, unique, uploadFile, goInApp as visit } from './helpers';

test('an artifact uploaded, then downloaded through a Blob with the same bytes', async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/fctables');
  await page.getByRole('link', { name: 'Nordic Food Composition Table 2023' }).click();
  await expect(page.getByRole('heading', { name: 'Artifacts' })).toBeVisible();

  // 300 kB of varied bytes, so the transfer takes several chunks.
  const bytes = Buffer.alloc(300_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  // No title given: it is the file's name, which downloads keep (production names a download
  // after a title with an extension, and sends no Content-Disposition across origins).
  const title = `${unique('journey')}.bin`;
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: title, mimeType: 'application/octet-stream', buffer: bytes });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await screens(page, 'artifacts');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${title}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(title);
  const saved = await readFile(await download.path());
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  expect(sha(saved)).toBe(sha(bytes));
  await expect(page.getByText(`Saved as ${title}.`)).toBeVisible();

  // On a slow line the bar moves, and Cancel stops the transfer: no file is saved.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 40_000, uploadThroughput: -1 });
  let saves = 0;
  page.on('download', () => { saves += 1; });
  await page.getByRole('button', { name: `Download ${title}` }).click();
  // Without a Content-Length (production streams) the bar is indeterminate and counts bytes.
  await expect(page.getByRole('status').filter({ hasText: production ? /^[\d.,]+ (byte|kB)$/ : /of 300 kB$/ })).toBeVisible();
  await expect(page.locator('.download progress')).toBeVisible();
  if (production) await expect(page.locator('.download progress')).not.toHaveAttribute('value');
  await page.getByRole('button', { name: 'Cancel download' }).click();
  await expect(page.getByText('Cancelled.')).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.waitForTimeout(500);
  expect(saves).toBe(0);

  // The artifact's own page offers the download too, and its delete.
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete artifact' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  // Back on the parent record, without the file.
  await expect(page.getByRole('heading', { name: 'Nordic Food Composition Table 2023', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
});

test("an article's files: listed where the service lists them, a quiet note where it does not", async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/articles/urn:article:coffee-liver');
  await expect(page.getByRole('heading', { name: 'Artifacts' })).toBeVisible();
  const name = `${unique('article-file')}.txt`;
  if (production) {
    await expect(page.getByRole('status').filter({ hasText: 'This service does not list the files of this record.' })).toBeVisible();
  } else {
    await expect(page.getByText('No files yet.')).toBeVisible();
  }
  await expect(page.locator('.error[role=alert]')).toHaveCount(0);
  await page.getByLabel('File', { exact: true }).setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('coffee and the liver') });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('button', { name: `Download ${name}` })).toBeVisible();
});

test('an artifact edited: saved where the service stores it, said so where it answers without storing', async ({ page, request }) => {
  // Production's artifact PATCH checks the body, answers `null` and stores nothing (production.md
  // §2.7): the console must not say "saved" there, and keeps what was typed.
  const title = unique('editable');
  const uploaded = await uploadFile(request, await apiToken(request), 'urn:fctable:nordic-fct-2023', `${title}.txt`, Buffer.from('a file'), title);
  await signIn(page);
  await visit(page, `/records/artifacts/${uploaded.id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Title', { exact: true }).fill(`${title} renamed`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  if (production) {
    await expect(page.getByRole('alert').filter({ hasText: 'without storing the change (title)' }).first()).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`${title} renamed`);
    await expect(page.getByText('Artifact saved')).toHaveCount(0);
  } else {
    await expect(page.getByText('Artifact saved')).toBeVisible();
    await expect(page.getByRole('heading', { name: `${title} renamed`, level: 1 })).toBeVisible();
  }
});
