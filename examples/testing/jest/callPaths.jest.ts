// Every way of calling the client that once loaded a part with a dynamic `import()`, under each jest setup (jest's
// CommonJS defaults cannot run one): the wires, the promise's readers, a run's wait, validation, raw calls,
// middleware. Against the embedded server in process (`fetch: server.fetch`).
import { afterAll, expect, it } from '@jest/globals';
import { Oz, type Middleware } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
afterAll(async () => {
  await server.close();
});

it('answers on the YAML wire', async () => {
  const run = await oz.tools.execute('echo', { text: 'x' }, { format: 'yaml' });
  expect(run).toMatchObject({ content: 'x' });
});

it('gives the answer with its Response, as a Response, and as a result', async () => {
  const { data, response } = await oz.tools.execute('echo', { text: 'x' }).withResponse();
  expect(data.content).toBe('x');
  expect(response.status).toBe(200);
  expect((await oz.tools.execute('echo', { text: 'y' }).asResponse()).status).toBe(200);
  const result = await oz.tools.execute('echo', { text: 'z' }).result();
  expect(result.error).toBeUndefined();
  expect(result.data?.content).toBe('z');
});

it('waits for an async run', async () => {
  const pointer = await oz.workflows.executeStored('draft-and-review', { input: 'notes', async: true });
  const done = await pointer.wait();
  expect(done.ok).toBe(true);
  expect(done.execution_id).toBe(pointer.execution_id);
});

it('checks answers with validate: strict', async () => {
  const run = await oz.tools.execute('echo', { text: 'x' }, { validate: 'strict' });
  expect(run.content).toBe('x');
});

it('makes raw calls', async () => {
  const { data } = await oz.raw.GET('/v1/tools/{tool}', { params: { path: { tool: 'echo' } } });
  expect(data?.name).toBe('echo');
});

it('runs middleware', async () => {
  const seen: string[] = [];
  const middleware: Middleware = async (request, next) => {
    seen.push(request.method);
    return await next(request);
  };
  const withMiddleware = oz.withOptions({ middleware: [middleware] });
  expect((await withMiddleware.tools.execute('echo', { text: 'x' })).content).toBe('x');
  expect(seen).toEqual(['POST']);
});
