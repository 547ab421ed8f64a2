/**
 * The YAML wire's contract slip a fuzzer found (issue 22, point 9): a YAML answer reads back as its JSON answer with
 * the YAML readers users have.
 */
import fc from 'fast-check';
import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml11 } from 'yaml';
import type { OzServer } from '../../../src/testing/index.js';
import { toYaml } from '../../../src/testing/wire/yamlWire.js';
import { createTestServer } from '../../support/ozServer.js';
import { call, callJson } from '../support/serverCall.js';

let server: OzServer;
afterEach(() => server?.close());

/** Loads YAML as the readers users have: js-yaml's default schema (YAML 1.1 timestamps) and a YAML 1.1 reader. */
function readBoth(text: string): [unknown, unknown] {
  return [yaml.load(text), parseYaml11(text, { version: '1.1' })];
}

describe('the YAML wire quotes every scalar a YAML 1.1 reader would retype', () => {
  it('answers read with js-yaml’s default schema and a YAML 1.1 reader equal the JSON answers (timestamps stay strings)', async () => {
    server = createTestServer();
    const run = await callJson<{ execution_id: string }>(server, 'POST', '/v1/tools/echo/execute', { body: { text: '2026-11-23' } });
    await call(server, 'POST', '/v1/companies/acme/items', { body: { building: 'lab', title: 'yes', body: '0755' } });
    await call(server, 'POST', '/v1/schedules', { body: { name: 'on', cron: '0 3 * * *', target: { kind: 'tool', name: 'echo' }, input: { text: '1:30' } } });
    for (const path of [
      `/v1/executions/${run.body.execution_id}`,
      '/v1/executions',
      '/v1/companies/acme/items',
      '/v1/schedules',
      '/v1/workflows',
      '/v1/traces',
    ]) {
      const json = await (await call(server, 'GET', path)).json();
      const text = await (await call(server, 'GET', `${path}?format=yaml`)).text();
      const [byJsYaml, byYaml11] = readBoth(text);
      expect(byJsYaml, `${path} read by js-yaml`).toEqual(json);
      expect(byYaml11, `${path} read as YAML 1.1`).toEqual(json);
    }
    const text = await (await call(server, 'GET', `/v1/executions/${run.body.execution_id}?format=yaml`)).text();
    expect(text).toMatch(/^created_at: '\d{4}-\d\d-\d\dT[^']+Z'$/m);
  });

  it('timestamps, dates, yes/no/on/off/y/n, octal, sexagesimal and other retyped scalars come back as the same strings', () => {
    const retyped = [
      '2026-11-23T15:06:32.952Z',
      '2026-11-23',
      '2026-11-23 15:06:32',
      'yes',
      'No',
      'on',
      'OFF',
      'y',
      'n',
      'Y',
      '0755',
      '1:30',
      '1:30.5',
      '1_000',
      '0x1F',
      '0b101',
      '0o17',
      '.5',
      '1.',
      '1e3',
      '.inf',
      '-.Inf',
      '.NaN',
      '~',
      'Null',
      '<<',
      '=',
    ];
    for (const value of retyped) {
      const text = toYaml({ value, list: [value] });
      for (const read of readBoth(text)) expect(read, `${value} as ${text}`).toEqual({ value, list: [value] });
    }
  });

  it('property: any string, and any string made of number, date and time characters, reads back as itself', () => {
    const ambiguous = fc.stringMatching(/^[-+.:_ 0-9eExobTZ]{1,20}$/);
    const words = fc.constantFrom('yes', 'no', 'on', 'off', 'y', 'n', 'true', 'null', '~', '<<', '=', '.inf', '.nan');
    fc.assert(
      fc.property(fc.oneof(fc.string(), ambiguous, words), (value) => {
        const text = toYaml({ value });
        for (const read of readBoth(text)) expect(read).toEqual({ value });
      }),
      { numRuns: 1000 },
    );
  });
});
