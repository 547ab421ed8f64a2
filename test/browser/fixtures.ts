import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { startOzMock, type OzMockProcess } from './ozMockProcess.js';

/** The console's views, by the label of their navigation button. */
export const VIEWS = ['Journal', 'State', 'Sessions', 'Faults and stubs', 'Clock'] as const;

/** What a page did that it must not: a request off 127.0.0.1, a console error, an uncaught error. */
interface PageFaults {
  readonly external: string[];
  readonly errors: string[];
}

/** On failure: a screenshot of each view of the console (or of the page as it is, when it is not the console). */
async function screenshotViews(page: Page, testInfo: TestInfo): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Views' });
  if (!(await nav.isVisible().catch(() => false))) {
    await page.screenshot({ path: testInfo.outputPath('page.png'), fullPage: true }).catch(() => undefined);
    return;
  }
  for (const view of VIEWS) {
    await nav
      .getByRole('button', { name: view, exact: true })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await page.screenshot({ path: testInfo.outputPath(`view-${view.toLowerCase().replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => undefined);
  }
}

export const test = base.extend<{ mock: OzMockProcess; pageFaults: PageFaults }>({
  // A fresh oz-mock for each test: `node dist/testing/cli.js`, as a user starts it.
  // Playwright reads the fixtures a fixture needs from its first parameter's pattern: `{}` is none.
  // eslint-disable-next-line no-empty-pattern
  mock: async ({}, use) => {
    const mock = await startOzMock();
    await use(mock);
    await mock.stop();
  },
  // Every test: requests off 127.0.0.1 are refused and recorded, console errors recorded; both must stay empty.
  pageFaults: [
    // It takes `mock` so that it ends before the server stops: the page closes first (its live feed with it).
    async ({ context, page, mock: _ }, use, testInfo) => {
      const faults: PageFaults = { external: [], errors: [] };
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === '127.0.0.1') return route.continue();
        faults.external.push(url.href);
        return route.abort('blockedbyclient');
      });
      page.on('console', (message) => {
        if (message.type() === 'error') faults.errors.push(message.text());
      });
      page.on('pageerror', (error) => faults.errors.push(error.message));
      await use(faults);
      if (testInfo.status !== testInfo.expectedStatus) await screenshotViews(page, testInfo);
      await page.close();
      expect(faults.external, 'requests outside 127.0.0.1').toEqual([]);
      expect(faults.errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Opens the console from the link oz-mock printed and waits until its live feed listens. */
export async function openConsole(page: Page, mock: OzMockProcess): Promise<void> {
  await page.goto(mock.consoleLink);
  await expect(page.getByRole('heading', { level: 1, name: 'oz-mock console' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(/^Live/);
}

/** Shows a view through its navigation button. */
export async function showView(page: Page, view: (typeof VIEWS)[number]): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: view })).toBeVisible();
}
