import { Page, APIRequestContext } from '@playwright/test';
import * as shared from './helpers';

// Shared steps of the knowledge-base journeys.

export async function signIn(page: Page, username = 'curator', password = 'curator-demo') {
  await shared.signIn(page, username, password);
}

/** Full-page screenshots at 1280 and 390 px wide. */
export const screens = shared.screenshots;

/** A bearer token for direct API calls (set-up and checks the console cannot make). */
export async function apiToken(request: APIRequestContext, username = 'curator', password = 'curator-demo') {
  return shared.apiToken(request, username, password);
}

/** A slug no earlier run has used. */
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** Goes to a path inside the console without reloading (a reload signs out: the token lives in memory). */
export const visit = shared.goInApp;
