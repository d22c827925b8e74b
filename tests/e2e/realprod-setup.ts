// Before the journeys against production's own households service (LARDER_WIRE=realprod):
// `cargo xtask realprod` starts it empty, and the journeys expect the demo's household of olivia
// (bob here), "The Parkers" with three members. Created through the API, as a person would.
import { request, expect } from '@playwright/test';

export default async function realprodSetup() {
  const baseURL = process.env.BASE_URL!;
  const api = (path: string) => new URL(`/api/v1/${path}`, baseURL).href;
  const context = await request.newContext();
  try {
    const login = await context.post(api('system/login'), { data: { username: 'bob', password: 'bob-pw-1' } });
    expect(login.status(), await login.text()).toBe(200);
    const headers = { Authorization: `Bearer ${(await login.json()).result.access_token}` };
    if ((await context.get(api('households/me'), { headers })).status() === 200) return;
    const created = await context.post(api('households'), {
      headers,
      data: {
        name: 'The Parkers', region: 'GB',
        members: [
          { name: 'Olivia', age_group: 'adult', profile: { dietary_groups: ['pescatarian'], nutritional_preferences: { calories_per_day: 2000 } } },
          { name: 'Liam', age_group: 'child', profile: { dietary_groups: ['omnivore', 'nut_free'] } },
          { name: 'Rose', age_group: 'senior', profile: { dietary_groups: ['vegetarian', 'low_sodium'] } },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(200);
  } finally {
    await context.dispose();
  }
}
