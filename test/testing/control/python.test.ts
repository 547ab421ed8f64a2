/**
 * Proof from another language: oz-mock started with a fixture file, driven from Python's standard library
 * (urllib) only: a declared tool, a 429 with Retry-After, a lost answer, a frozen clock firing a schedule, the
 * journal, a reset.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT, startOzMock, type SpawnedOzMock } from './spawnOzMock.js';

let mock: SpawnedOzMock | undefined;
afterAll(() => mock?.stop());

it('a Python script (standard library only) drives oz-mock through its control plane', async () => {
  const started = await startOzMock([
    '--fixtures',
    join(ROOT, 'test/testing/fixtures/control/shop.yaml'),
    '--frozen-clock',
    '--clock-start',
    '2026-11-22T09:30:00Z',
  ]);
  mock = started.mock;
  const script = join(ROOT, 'test/testing/control/python/drive_oz_mock.py');
  const result = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      'python3',
      [script],
      {
        env: { ...process.env, OZ_BASE_URL: started.line.url, OZ_MOCK_ADMIN_TOKEN: started.line.adminToken!, SHOP_KEY: 'ozk_ShopShopShopShopShopShopShop0001' },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
  expect(result.out).toContain('python: all checks passed');
  expect(result.code).toBe(0);
  expect(result.out).toContain('ok - the hourly schedule fired');
}, 90_000);
