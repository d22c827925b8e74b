import { test, expect } from './fixtures';
import { createHash } from 'crypto';
import { readFile } from 'fs/promises';
import { signIn, screens, unique, visit } from './records-common';

test('an artifact uploaded, then downloaded through a Blob with the same bytes', async ({ page }) => {
  await signIn(page);
  await visit(page, '/records/fctables');
  await page.getByRole('link', { name: 'Nordic Food Composition Table 2023' }).click();
  await expect(page.getByRole('heading', { name: 'Artifacts' })).toBeVisible();

  // 300 kB of varied bytes, so the transfer takes several chunks.
  const bytes = Buffer.alloc(300_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  const title = unique('Journey file');
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'journey.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await page.getByLabel('Title (optional)').fill(title);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await screens(page, 'artifacts');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${title}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('journey.bin');
  const saved = await readFile(await download.path());
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  expect(sha(saved)).toBe(sha(bytes));
  await expect(page.getByText('Saved as journey.bin.')).toBeVisible();

  // On a slow line the bar moves, and Cancel stops the transfer: no file is saved.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 40_000, uploadThroughput: -1 });
  let saves = 0;
  page.on('download', () => { saves += 1; });
  await page.getByRole('button', { name: `Download ${title}` }).click();
  await expect(page.getByRole('status').filter({ hasText: /of 300000 bytes/ })).toBeVisible();
  await expect(page.locator('.download progress')).toBeVisible();
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
