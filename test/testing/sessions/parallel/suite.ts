/**
 * What each of the four test files runs: it resets before every test, makes an item, arms a fault, and checks that
 * it sees exactly its own item, its own fault and its own journal. With a session per file nothing interferes;
 * sharing the one server (OZ_PARALLEL_SHARED=1), the other workers' resets and requests break these checks.
 */
import { beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { Oz } from 'oz-sdk';
import { connectOzMock } from 'oz-sdk/testing';
import { useOzSession } from '../../../../examples/testing/ozSession.js';

const TESTS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sharedServer() {
  const { url, adminToken, apiKey } = inject('ozMock');
  const mock = connectOzMock({ url, adminToken });
  beforeEach(() => mock.reset());
  return { controls: mock, apiKey, url };
}

export async function defineSuite(name: string): Promise<void> {
  const { controls, apiKey, url } =
    process.env.OZ_PARALLEL_SHARED === '1'
      ? await sharedServer()
      : await (async () => {
          const session = await useOzSession();
          return { controls: session, apiKey: session.apiKey, url: session.url };
        })();
  const oz = new Oz({ baseURL: url, apiKey, maxRetries: 0, logLevel: 'off' });
  beforeAll(async () => void (await (await fetch(process.env.OZ_PARALLEL_BARRIER!)).text()), 60_000);

  for (let i = 0; i < TESTS; i++) {
    it(`${name}: test ${i} sees only its own world`, async () => {
      const item = await oz.companies.items.create('acme', { building: 'lab', title: `${name} ${i}` });
      await controls.faults.add({ operationId: 'listTools', type: 'error', status: 503, code: 'upstream_error' });
      await sleep(25);
      const page = await oz.companies.items.list('acme', { building: 'lab' });
      expect(page.data.map((x) => x.id)).toEqual([item.id]);
      await expect(oz.tools.list()).rejects.toMatchObject({ status: 503 });
      expect(await controls.journal.count('createCompanyItem')).toBe(1);
    });
  }
}
