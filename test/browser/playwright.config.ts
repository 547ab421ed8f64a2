import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// The browser tests (`npm run test:browser`): Debian's Chromium (Playwright's own browser download cannot reach
// its host on these machines), against a real `oz-mock` process started from the build (`npm run build` first).
// Vitest never picks these files up: they are `*.spec.ts`, vitest takes `*.test.ts`.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Screenshots of every view of a failed test land here (git ignores it).
  outputDir: fileURLToPath(new URL('../../test-results/browser', import.meta.url)),
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.OZ_CHROMIUM ?? '/usr/bin/chromium' },
    screenshot: 'only-on-failure',
  },
});
