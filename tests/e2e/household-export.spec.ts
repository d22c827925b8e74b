import { readFileSync } from 'node:fs';
import { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { api, apiToken, armFault, faultControl, goInApp, signIn, unique, parseCsv, scan } from './helpers';

// "Download my data" (issue 22): the versioned JSON file and the CSV zip hold what the service
// holds, quoting survives a name with a comma and quotes, the offer sits in the delete dialogs,
// and a failed export says so and works on "Try again". family23 is used by no other journey.

const OWNER = 'family23';
const PASSWORD = 'family-demo';

test.describe.configure({ mode: 'serial' });

/** The owner's household with members and profiles, as the API holds it. */
async function held(request: import('@playwright/test').APIRequestContext) {
  const token = await apiToken(request, OWNER, PASSWORD);
  const answer = await request.get(api('households/me'), { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBeTruthy();
  return { token, household: (await answer.json()).result };
}

/** The files of a zip whose entries are stored (the only kind the console writes). */
function unzipStored(bytes: Buffer): Record<string, string> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    expect(bytes.readUInt16LE(at + 10)).toBe(0); // stored
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const body = local + 30 + bytes.readUInt16LE(local + 26);
    files[name] = bytes.subarray(body, body + size).toString('utf8');
    at += 46 + nameLength;
  }
  return files;
}

async function download(page: Page, button: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).first().click(),
  ]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
}

test('an owner downloads the household as versioned JSON that matches what the API holds', async ({ page, request }) => {
  const { token } = await held(request);
  const { household: before } = await held(request);
  // A member whose name needs quoting, with a profile holding a preference and a property.
  const name = `Ann "Annie", ${unique('jr')}`;
  const created = await request.post(api('members'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { household_id: before.id, name, age_group: 'adult' },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const member = (await created.json()).result;
  const profile = await request.post(api(`members/${member.id}/profile`), {
    headers: { Authorization: `Bearer ${token}` },
    data: { dietary_groups: ['vegan'], allergies: ['sesame'], nutritional_preferences: { likes: ['oats, rolled', 'figs'] } },
  });
  expect(profile.ok(), await profile.text()).toBeTruthy();
  const { household } = await held(request);

  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  await expect(page.getByRole('heading', { name: household.name, level: 1 })).toBeVisible();
  const file = await download(page, 'Download my data (JSON)');
  expect(file.name).toMatch(/^household-\d{4}-\d{2}-\d{2}\.json$/);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toContainText(`${household.members.length} members`);
  const data = JSON.parse(file.bytes.toString('utf8'));
  expect(data.format).toBe('larder-household-export');
  expect(data.version).toBe(1);
  expect(Date.parse(data.exported_at)).toBeGreaterThan(Date.now() - 600_000);
  expect(data.household.id).toBe(household.id);
  expect(data.household.name).toBe(household.name);
  expect(data.member_count).toBe(household.members.length);
  // Both larder-server wires keep production's meal plans and library: read for every member
  // (none here), over the last 30 days and the next 7.
  expect(data.member_data.meal_plans).toBe('included');
  expect(data.member_data.adapted_recipes).toBe('included');
  expect(Object.keys(data.meal_plan_dates)).toEqual(['from', 'to']);
  const byId = (list: { id: string }[]) => Object.fromEntries(list.map((m) => [m.id, m]));
  const exported = byId(data.members);
  for (const m of household.members) {
    expect(exported[m.id].name).toBe(m.name);
    expect(exported[m.id].age_group).toBe(m.age_group);
    expect(exported[m.id].profile).toEqual(m.profile);
  }
  expect(exported[member.id].profile.nutritional_preferences.likes).toEqual(['oats, rolled', 'figs']);
  expect(exported[member.id].profile.allergies).toEqual(['sesame']);
});

test('the CSV zip holds one table per kind, quoted as RFC 4180 asks', async ({ page, request }) => {
  const { household } = await held(request);
  const annie = household.members.find((m: { name: string }) => m.name.startsWith('Ann "Annie", '));
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  const file = await download(page, 'Download my data (CSV, zip)');
  expect(file.name).toMatch(/^household-\d{4}-\d{2}-\d{2}-csv\.zip$/);
  const files = unzipStored(file.bytes);
  expect(Object.keys(files)).toEqual(['household.csv', 'members.csv', 'profiles.csv', 'meal_plans.csv',
    'saved_items.csv', 'favorites.csv', 'adapted_recipes.csv', 'saved_meal_plans.csv']);
  expect(files['meal_plans.csv']).toBe('member_id,date,id,applies_to_member_ids,reasoning,other_fields\r\n');
  // The raw line shows the quoting; the parse shows it reads back exactly.
  expect(files['members.csv']).toContain(`"${annie.name.replace(/"/g, '""')}"`);
  const members = parseCsv(files['members.csv']);
  expect(members[0]).toEqual(['id', 'household_id', 'name', 'age_group', 'image_url', 'joined_at', 'other_fields']);
  expect(members.length - 1).toBe(household.members.length);
  expect(members.find((row) => row[0] === annie.id)?.[2]).toBe(annie.name);
  const profiles = parseCsv(files['profiles.csv']);
  const row = profiles.find((r) => r[0] === annie.id)!;
  expect(row[2]).toBe('vegan');
  expect(row[3]).toBe('sesame');
  expect(JSON.parse(row[4])).toEqual({ likes: ['oats, rolled', 'figs'] });
  expect(parseCsv(files['household.csv'])[1][1]).toBe(household.name);
});

test('a failed export says so, and Try again saves the file', async ({ page, request }) => {
  const { household } = await held(request);
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  await expect(page.getByRole('heading', { name: household.name, level: 1 })).toBeVisible();
  // Every try of the member listing fails (the client's retries included).
  await request.delete(faultControl());
  await armFault(request, 'GET', '/api/v1/members', Array(4).fill({ kind: 'html' }));
  await page.getByRole('button', { name: 'Download my data (JSON)' }).click();
  const alert = page.locator('.download-my-data [role="alert"]');
  await expect(alert).toContainText('The export failed', { timeout: 20_000 });
  await scan(page, 'the failed export');
  const [file] = await Promise.all([page.waitForEvent('download'), alert.getByRole('button', { name: 'Try again' }).click()]);
  const data = JSON.parse(readFileSync((await file.path())!).toString('utf8'));
  expect(data.members.length).toBe(household.members.length);
});

test('the delete dialogs offer the download first', async ({ page, request }) => {
  const { household } = await held(request);
  await signIn(page, OWNER, PASSWORD);
  await goInApp(page, '/household');
  await page.getByRole('button', { name: 'Delete household' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Before you delete, download your data.');
  await scan(page, 'the delete dialog');
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download my data (JSON)' }).click()]);
  expect(JSON.parse(readFileSync((await file.path())!).toString('utf8')).household.id).toBe(household.id);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  // A member's delete dialog too; nothing is deleted.
  await page.locator('.member-list a').first().click();
  await page.getByRole('button', { name: 'Delete member' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Before you delete, download your data.');
  await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Download my data (CSV, zip)' })).toBeVisible();
  await page.keyboard.press('Escape');
  const { household: after } = await held(request);
  expect(after.members.length).toBe(household.members.length);
});
