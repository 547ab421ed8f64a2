/**
 * The dashboard's keys tab (`{dashboard}/keys`) in headless Chromium against a real `oz-mock` process: a key made
 * there works against the API and is shown once; a revoked key answers 401 after the key cache's time; legacy keys
 * are listed read-only with revoke; a form on another site cannot write.
 */
import { callApi, control } from './ozMockProcess.js';
import { expect, test } from './fixtures.js';

test('creates a key that works against the API, shown once', async ({ page, mock }) => {
  await page.goto(`${mock.dashboardUrl}/keys`);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await page.getByLabel('Name').fill('laptop');
  await page.getByLabel('Expiry').selectOption({ label: '30 days' });
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Your new key' })).toBeVisible();
  const value = await page.getByLabel('Key laptop').inputValue();
  expect(value).toMatch(/^ozk_[A-Za-z0-9]{32}$/);
  expect(await callApi(mock, 'GET', '/v1/tools', value)).toBe(200);
  // Shown once: the list has its name and last characters, never the value again.
  await page.goto(`${mock.dashboardUrl}/keys`);
  const row = page.getByRole('table', { name: 'Platform keys of this account' }).getByRole('row', { name: /laptop/ });
  await expect(row).toContainText(`ozk_…${value.slice(-4)}`);
  await expect(row).toContainText('2026-12-26T10:00:00.000Z');
  expect(await page.content()).not.toContain(value);
});

test('revokes a key: it answers 401 once the key cache time has passed', async ({ page, mock }) => {
  await page.goto(`${mock.dashboardUrl}/keys`);
  await page.getByLabel('Name').fill('old laptop');
  await page.getByRole('button', { name: 'Create key' }).click();
  const value = await page.getByLabel('Key old laptop').inputValue();
  await page.getByRole('button', { name: `Revoke old laptop (ozk_…${value.slice(-4)})` }).click();
  await expect(page.getByRole('status')).toHaveText(
    "Key old laptop is revoked: it stops working at 2026-11-26T10:02:00.000Z, once the key cache's time has passed.",
  );
  expect(await callApi(mock, 'GET', '/v1/tools', value)).toBe(200);
  await control(mock, 'POST', '/clock/advance', { ms: 120_000 });
  expect(await callApi(mock, 'GET', '/v1/tools', value)).toBe(401);
  await page.goto(`${mock.dashboardUrl}/keys`);
  await expect(
    page
      .getByRole('row', { name: /old laptop/ })
      .getByRole('cell')
      .nth(4),
  ).toHaveText('Revoked');
});

test('lists legacy keys read-only, with revoke', async ({ page, mock }) => {
  await page.goto(`${mock.dashboardUrl}/keys`);
  const legacy = page.getByRole('table', { name: 'Legacy keys of this account (read-only)' });
  await expect(legacy.getByRole('row', { name: /sk-mdl-…/ })).toBeVisible();
  await expect(legacy.getByRole('row', { name: /sk-prx-…/ })).toBeVisible();
  await expect(legacy.getByRole('button', { name: /^Revoke/ })).toHaveCount(2);
  // Nothing else to do with them: no field, and the one create form makes platform keys.
  await expect(legacy.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(1);
  await legacy.getByRole('button', { name: /^Revoke .*sk-mdl-/ }).click();
  await control(mock, 'POST', '/clock/advance', { ms: 120_000 });
  expect(await callApi(mock, 'GET', '/v1/models', mock.modelsKey)).toBe(401);
});

test("a form on another page cannot write, even with the page's anti-forgery token: 403 forbidden_origin", async ({ page, mock, pageFaults }) => {
  await page.goto(`${mock.dashboardUrl}/keys`);
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const before = await control<{ keys: unknown[] }>(mock, 'GET', '/state');
  // A page of no origin of ours (its Origin is `null`) posts the dashboard's form.
  await page.goto('about:blank');
  await page.setContent(
    `<form method="post" action="${mock.dashboardUrl}/keys"><input type="hidden" name="csrf_token" value="${token}"><input type="hidden" name="name" value="forged"><input type="hidden" name="expires_in_days" value="never"><button>Send</button></form>`,
  );
  const [answer] = await Promise.all([page.waitForResponse(`${mock.dashboardUrl}/keys`), page.getByRole('button', { name: 'Send' }).click()]);
  expect(answer.status()).toBe(403);
  expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('forbidden_origin');
  expect((await control<{ keys: unknown[] }>(mock, 'GET', '/state')).keys).toHaveLength(before.keys.length);
  // The browser logs the refused post itself: that one console line is expected here, and nothing else.
  expect(pageFaults.errors).toEqual([expect.stringMatching(/status of 403/)]);
  pageFaults.errors.length = 0;
});
