import { defineConfig } from '@playwright/test';

// `cargo xtask test` starts larder-server with the release console and passes its address.
const baseURL = process.env.BASE_URL;
if (!baseURL) {
  throw new Error('BASE_URL is not set: run the journeys through `cargo xtask test`.');
}

export default defineConfig({
  testDir: 'tests/e2e',
  // Production's own households service starts empty: give it the demo's household first.
  globalSetup: process.env.LARDER_WIRE === 'realprod' ? './tests/e2e/realprod-setup.ts' : undefined,
  // What only production's own households service shows runs against it only, and what needs the
  // identity provider (`cargo xtask oidc`) only where it runs.
  testIgnore: Object.entries({ realprod: '**/realprod.spec.ts', oidc: '**/oidc-*.spec.ts' })
    .filter(([wire]) => wire !== process.env.LARDER_WIRE)
    .map(([, pattern]) => pattern),
  // One folder per wire: `cargo xtask test` runs the wires side by side.
  outputDir: `target/playwright/results-${process.env.LARDER_WIRE ?? 'reference'}`,
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
      ],
    },
  },
});
