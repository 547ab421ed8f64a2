/**
 * oz-mock's console (`/_oz/ui`) in headless Chromium against a real `oz-mock` process: every "Done when" line of
 * the console. Each test also holds that the page made no request off 127.0.0.1 and logged no console error
 * (fixtures.ts).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callApi, control } from './ozMockProcess.js';
import { expect, openConsole, showView, test } from './fixtures.js';

test('loads from the link oz-mock prints, and keeps the token out of the address bar', async ({ page, mock }) => {
  expect(mock.consoleLink).toBe(`${mock.url}/_oz/ui#token=${mock.adminToken}`);
  await openConsole(page, mock);
  expect(page.url()).toBe(`${mock.url}/_oz/ui`);
  await expect(page.getByRole('heading', { level: 2, name: 'Journal' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Session' })).toHaveValue('');
});

test('without the token it shows no data, only a way to give one', async ({ page, mock, pageFaults }) => {
  await callApi(mock, 'GET', '/v1/tools', mock.apiKey);
  await page.goto(`${mock.url}/_oz/ui`);
  await expect(page.getByText(/No admin token/)).toBeVisible();
  await expect(page.getByLabel('Admin token')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('/v1/tools');
  // A wrong token: the server's 401 is shown, and still no data (about:blank first: a new fragment alone is no load).
  await page.goto('about:blank');
  await page.goto(`${mock.url}/_oz/ui#token=ozadm_WrongWrongWrongWrongWrongWrongWron`);
  await expect(page.getByRole('status')).toHaveText(/^401 unauthorized/);
  await expect(page.getByRole('table')).toHaveCount(0);
  // The browser logs the refused request itself: that one console line is expected here, and nothing else.
  expect(pageFaults.errors).toEqual([expect.stringMatching(/status of 401/)]);
  pageFaults.errors.length = 0;
});

test('a request made by the test appears in the journal view within a second', async ({ page, mock }) => {
  await openConsole(page, mock);
  expect(await callApi(mock, 'GET', '/v1/tools/nope-from-the-test', mock.apiKey)).toBe(404);
  const row = page.locator('#journal-table tbody tr', { hasText: '/v1/tools/nope-from-the-test' });
  await expect(row).toBeVisible({ timeout: 1_000 });
  await expect(row).toContainText('404');
  await expect(row).toContainText('getTool');
});

test('a request answered while the console reads the journal keeps its row (the read predates it)', async ({ page, mock }) => {
  const row = page.locator('#journal-table tbody tr', { hasText: '/v1/tools/nope-while-loading' });
  // The journal's answer is taken from the server first, then held until the feed has shown the new request.
  await page.route('**/_oz/journal?*', async (route) => {
    const answer = await route.fetch();
    expect(await callApi(mock, 'GET', '/v1/tools/nope-while-loading', mock.apiKey)).toBe(404);
    await expect(row).toBeVisible();
    await route.fulfill({ response: answer });
  });
  await openConsole(page, mock);
  await expect(row).toBeVisible();
  await expect(row).toContainText('404');
});

test('the state view shows a created item and its walk', async ({ page, mock }) => {
  await openConsole(page, mock);
  const created = await fetch(`${mock.url}/v1/companies/acme/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ building: 'hq', title: 'Ship the console' }),
  });
  expect(created.status).toBe(201);
  const item = (await created.json()) as { id: string };
  await showView(page, 'State');
  const row = page.getByRole('row', { name: new RegExp(item.id) });
  await expect(row).toContainText('Ship the console');
  await expect(row.getByRole('list', { name: 'Walk' }).locator('[aria-current="step"]')).toHaveText(/^intake/);
  // Two steps of the walk on the server's clock: intake, then plan, then build.
  await control(mock, 'POST', '/clock/advance', { ms: 10 });
  await control(mock, 'POST', '/clock/advance', { ms: 10 });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const walk = row.getByRole('list', { name: 'Walk' });
  await expect(walk.locator('[aria-current="step"]')).toHaveText(/^build/);
  await expect(walk.locator('li.walked')).toHaveText([/^intake/, /^plan/]);
});

test('choosing a session shows only its traffic', async ({ page, mock }) => {
  const session = await control<{ id: string; api_key: string }>(mock, 'POST', '/sessions', {});
  await openConsole(page, mock);
  await callApi(mock, 'GET', '/v1/workflows', mock.apiKey);
  await callApi(mock, 'GET', '/v1/agents', session.api_key);
  await expect(page.locator('#journal-table tbody tr', { hasText: '/v1/workflows' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Session' }).selectOption(session.id);
  await expect(page.getByRole('status')).toHaveText(`Live: session ${session.id}.`);
  await expect(page.locator('#journal-table tbody tr', { hasText: '/v1/agents' })).toBeVisible();
  await expect(page.locator('#journal-table tbody tr')).toHaveCount(1);
  // Live in the session too: the session's request shows, the default session's does not.
  await callApi(mock, 'GET', '/v1/tools/session-only', session.api_key);
  await callApi(mock, 'GET', '/v1/tools/default-only', mock.apiKey);
  await expect(page.locator('#journal-table tbody tr', { hasText: '/v1/tools/session-only' })).toBeVisible();
  await expect(page.locator('#journal-table tbody tr', { hasText: '/v1/tools/default-only' })).toHaveCount(0);
  await showView(page, 'Sessions');
  await expect(page.getByText(`Showing session ${session.id}.`)).toBeVisible();
});

test("a fault's hits show after it fired", async ({ page, mock }) => {
  const fault = await control<{ id: string }>(mock, 'POST', '/faults', {
    type: 'error',
    operationId: 'listTools',
    status: 502,
    code: 'upstream_error',
    times: 3,
  });
  await openConsole(page, mock);
  await showView(page, 'Faults and stubs');
  const row = page.getByRole('row', { name: new RegExp(fault.id) });
  await expect(row.getByRole('cell').nth(3)).toHaveText('0');
  expect(await callApi(mock, 'GET', '/v1/tools', mock.apiKey)).toBe(502);
  // The view is read again when a request comes through the feed.
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');
  await expect(row.getByRole('cell').nth(4)).toHaveText('2');
  await expect(page.getByRole('heading', { level: 3, name: 'Never fired' })).toBeVisible();
});

test("a stub sequence's position shows as it moves", async ({ page, mock }) => {
  const page2 = { status: 200, body: { data: [], next_cursor: null } };
  const stub = await control<{ id: string }>(mock, 'POST', '/stubs', { operationId: 'listTools', answers: [page2, page2, page2], then: 'fallthrough' });
  await openConsole(page, mock);
  await showView(page, 'Faults and stubs');
  const row = page.getByRole('row', { name: new RegExp(stub.id) });
  await expect(row.getByRole('cell').nth(3)).toHaveText('answer 1 of 3, then fallthrough');
  expect(await callApi(mock, 'GET', '/v1/tools', mock.apiKey)).toBe(200);
  await expect(row.getByRole('cell').nth(3)).toHaveText('answer 2 of 3, then fallthrough');
  await expect(row.getByRole('cell').nth(4)).toHaveText('1');
});

test("the clock view freezes, runs and advances the server's clock", async ({ page, mock }) => {
  await openConsole(page, mock);
  await showView(page, 'Clock');
  await expect(page.locator('#clock-now')).toHaveText('2026-11-26T10:00:00.000Z');
  await expect(page.locator('#clock-frozen')).toHaveText('yes');
  await page.getByLabel('Advance by (milliseconds)').fill('3600000');
  await page.getByLabel('Advance by (milliseconds)').press('Enter');
  await expect(page.locator('#clock-now')).toHaveText('2026-11-26T11:00:00.000Z');
  expect((await control<{ now: string }>(mock, 'GET', '/clock')).now).toBe('2026-11-26T11:00:00.000Z');
  await page.getByRole('button', { name: 'Let the clock run' }).click();
  await expect(page.locator('#clock-frozen')).toHaveText('no');
  expect((await control<{ frozen: boolean }>(mock, 'GET', '/clock')).frozen).toBe(false);
  await page.getByRole('button', { name: 'Freeze the clock' }).click();
  await expect(page.locator('#clock-frozen')).toHaveText('yes');
});

test('works from the keyboard: the views are buttons in a labelled navigation, each with its heading', async ({ page, mock }) => {
  await openConsole(page, mock);
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('button', { name: 'Journal', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('button', { name: 'State', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'State' })).toBeFocused();
  await expect(page.getByRole('heading', { level: 3, name: 'Items' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'State', exact: true })).toHaveAttribute('aria-current', 'true');
});

test('pictures of the journal and state views (docs/console.md shows them, copied from test-results/browser/docs/)', async ({ page, mock }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConsole(page, mock);
  await control(mock, 'POST', '/faults', { type: 'error', operationId: 'executeTool', status: 502, code: 'upstream_error', times: 1 });
  await callApi(mock, 'GET', '/v1/tools', mock.apiKey);
  await callApi(mock, 'POST', '/v1/tools/echo/execute', mock.apiKey, { text: 'hello' });
  await callApi(mock, 'POST', '/v1/tools/echo/execute', mock.apiKey, { text: 'hello again' });
  await callApi(mock, 'POST', '/v1/companies/acme/items', mock.apiKey, { building: 'hq', title: 'Ship the console' });
  await control(mock, 'POST', '/clock/advance', { ms: 10 });
  await expect(page.locator('#journal-table tbody tr')).toHaveCount(4);
  const folder = testInfo.project.outputDir;
  await page.screenshot({ path: `${folder}/docs/console-journal.png` });
  await showView(page, 'State');
  await expect(page.getByRole('row', { name: /Ship the console/ })).toBeVisible();
  await page.getByRole('heading', { level: 3, name: 'Items' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${folder}/docs/console-state.png` });
});

test("the stubs view shows an unused stub's near miss on another path parameter", async ({ page, mock }) => {
  const gone = { status: 404, body: { error: { code: 'item_not_found', message: 'gone' } } };
  const stub = await control<{ id: string }>(mock, 'POST', '/stubs', {
    operationId: 'getCompanyItem',
    match: { path: { campus: 'acme', id: 'itm_x' } },
    answer: gone,
  });
  expect(await callApi(mock, 'GET', '/v1/companies/acme/items/itm_y', mock.apiKey)).toBe(404);
  await openConsole(page, mock);
  await showView(page, 'Faults and stubs');
  const misses = page.getByRole('list', { name: `Near misses of ${stub.id}` });
  await expect(misses.getByRole('listitem')).toHaveCount(1);
  await expect(misses.getByRole('listitem')).toContainText('path.id expected "itm_x", got "itm_y"');
});

test('the journal shows where a proxy stub sent a request, and the stubs view names its target', async ({ page, mock }) => {
  const target = createServer((_req, res) => res.end('{"data":[],"next_cursor":null}'));
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  try {
    const stub = await control<{ id: string }>(mock, 'POST', '/stubs', {
      operationId: 'listTools',
      answer: { proxy: url, proxyApiKey: 'sk-target-secret-key-9876' },
    });
    await openConsole(page, mock);
    expect(await callApi(mock, 'GET', '/v1/tools', mock.apiKey)).toBe(200);
    const row = page.locator('#journal-table tbody tr', { hasText: '/v1/tools' });
    await expect(row.getByRole('cell').nth(7)).toHaveText(`${url}/v1/tools`);
    await showView(page, 'Faults and stubs');
    await expect(
      page
        .getByRole('row', { name: new RegExp(stub.id) })
        .getByRole('cell')
        .nth(3),
    ).toHaveText(`proxy to ${url}`);
    await expect(page.getByText('sk-target-secret-key-9876')).toHaveCount(0);
  } finally {
    target.close();
  }
});
