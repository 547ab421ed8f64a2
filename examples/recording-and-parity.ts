/**
 * Record once, replay in tests: `oz-mock record` wrote examples/fixtures/recording/ in front of a service; its
 * stubs make an embedded server answer what the service answered, ids included. A test's traffic, as HAR, opens
 * in any HAR viewer.
 *
 *   node --import tsx examples/recording-and-parity.ts
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Oz, ToolNotFoundError } from 'oz-sdk';
import { createOzServer, readStubFile } from 'oz-sdk/testing';

// #region replay
// stubs.json (or recording.har itself) from `oz-mock record --target https://your-oz-service --out examples/fixtures/recording`
const file = 'examples/fixtures/recording/stubs.json';
const server = createOzServer({ stubs: readStubFile(readFileSync(file, 'utf8'), file) });
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });

const item = await oz.companies.items.create('acme', { building: 'hq', title: 'Launch plan' });
console.log(item.id, item.step); // the id and step the service answered when it was recorded
const result = await oz.tools.execute('echo', { text: 'hello' });
console.log(result.content, result.execution_id);
await oz.tools.get('translate').catch((err: unknown) => console.log(err instanceof ToolNotFoundError, (err as ToolNotFoundError).code));

server.reset(); // the recorded stubs are armed again after every reset
console.log((await oz.companies.items.create('acme', { building: 'hq', title: 'Launch plan' })).id === item.id);
// #endregion

// #region har
// Every request the server saw, keys reading <redacted>: attach it to a failing test's report.
const har = server.journal.toHAR();
const path = join(mkdtempSync(join(tmpdir(), 'oz-')), 'traffic.har');
writeFileSync(path, JSON.stringify(har));
console.log(har.log.entries.map((e) => `${e._operationId} ${e.response.status}`).join(', '));
// #endregion
await server.close();
