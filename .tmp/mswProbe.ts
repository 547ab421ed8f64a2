import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { Oz } from '../src/index.js';
import { createOzServer } from '../src/testing/index.js';

const mode = process.argv[2] ?? 'both';
const N = Number(process.env.N ?? 300);
const server = createOzServer({ rateLimit: { limit: 1e9 } });
const body = { text: 'hello' };
// The JSON the embedded server answers, written once as a hand-written handler would.
const direct = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
const sample = await direct.tools.execute('echo', body);
const json = JSON.parse(JSON.stringify(sample));
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, maxRetries: 0 });

async function timed(label: string, handlers: Parameters<typeof setupServer>): Promise<number> {
  const msw = setupServer(...handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  try {
    for (let i = 0; i < 50; i++) await oz.tools.execute('echo', body);
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) await oz.tools.execute('echo', body);
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000 / N;
    console.log(label, ms.toFixed(3), 'ms/call');
    return ms;
  } finally {
    msw.close();
  }
}
const hand = () => [http.post(`${server.url}/v1/tools/:tool/execute`, () => HttpResponse.json(json))];
const mount = () => server.handlers();
for (let r = 0; r < 6; r++) {
  if (mode !== 'mount') await timed('hand', hand());
  if (mode !== 'hand') await timed('mount', mount());
}
await server.close();
