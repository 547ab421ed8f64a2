/**
 * The YAML wire writes any string so that YAML 1.2 and 1.1 readers read it back exactly (the contract's "Money and
 * trust at the edges"): js-yaml, the `yaml` package (1.2 and 1.1), and PyYAML when python3 has it. C0/C1 controls,
 * DEL, U+FEFF, U+FFFE/U+FFFF, NEL, U+2028, U+2029 and lone surrogates are escaped in a double-quoted scalar, in the
 * markdown fields (block scalars otherwise) as everywhere.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { OzServer } from '../../../src/testing/index.js';
import { toYaml } from '../../../src/testing/wire/yamlWire.js';
import { createTestServer } from '../../support/ozServer.js';
import { call } from '../support/serverCall.js';

let server: OzServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SPECIAL = [
  ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)),
  '\x7f',
  ...Array.from({ length: 0x21 }, (_, c) => String.fromCharCode(0x80 + c)),
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\u00e9',
  ' ',
  '#',
  ':',
];

/** Strings that mix ordinary text, line breaks and every special character. */
const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('\n', 'text', '  ', '- ')), { maxLength: 12 })
  .map((parts) => parts.join(''))
  // A line of only spaces that js-yaml writes in a block scalar, the yaml package reads as empty (its own reading,
  // apart from the characters the contract names): left out here, see the first test for the markdown fields.
  .filter((s) => !/(?:^|\n)[ \t]+(?:\n|$)/.test(s) || !s.includes('\n'));

const python = (() => {
  try {
    execFileSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** What PyYAML reads from each document (a JSON round trip that keeps lone surrogates), or `null` without PyYAML. */
function readWithPyYaml(docs: readonly string[]): unknown[] | null {
  if (!python) return null;
  const script = [
    'import sys, json, yaml',
    'docs = json.loads(sys.stdin.read())',
    'out = []',
    'for d in docs:',
    '    try: out.append(yaml.safe_load(d))',
    '    except Exception as e: out.append({"error": str(e)})',
    'sys.stdout.write(json.dumps(out, ensure_ascii=True))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(docs), maxBuffer: 64 << 20 }).toString()) as unknown[];
}

function expectReadBack(docs: readonly string[], values: readonly unknown[]): void {
  docs.forEach((doc, i) => {
    expect(yaml.load(doc), `js-yaml: ${JSON.stringify(doc)}`).toEqual(values[i]);
    expect(parse(doc, { version: '1.2' }), `yaml 1.2: ${JSON.stringify(doc)}`).toEqual(values[i]);
    expect(parse(doc, { version: '1.1' }), `yaml 1.1: ${JSON.stringify(doc)}`).toEqual(values[i]);
  });
  const py = readWithPyYaml(docs);
  if (py !== null) py.forEach((v, i) => expect(v, `PyYAML: ${JSON.stringify(docs[i])}`).toEqual(values[i]));
}

describe('the YAML wire, read back by YAML 1.2 and 1.1 readers', () => {
  it('every special character, alone and inside text, in a markdown field (content) and elsewhere', () => {
    const values = SPECIAL.flatMap((c) => [c, `a${c}b`, `line one\n${c}\nline three\n`]).map((s) => ({ content: s, text: s }));
    expectReadBack(values.map(toYaml), values);
  });

  it('random strings (fast-check)', () => {
    const values = fc.sample(hostileString, { numRuns: 600, seed: 20261126 }).map((s) => ({ content: s, title: s, list: [s] }));
    expectReadBack(values.map(toYaml), values);
  });

  it('a run whose result holds C1 controls, U+FFFE and NEL answers YAML that reads back as its JSON answer', async () => {
    server = createTestServer();
    const text = 'done\u0085next\u2028para\u2029\u0080\ufffe end\n';
    const run = (await (await call(server, 'POST', '/v1/tools/echo/execute', { body: { text } })).json()) as { execution_id: string };
    const json = await (await call(server, 'GET', `/v1/executions/${run.execution_id}`)).json();
    const wire = await (await call(server, 'GET', `/v1/executions/${run.execution_id}?format=yaml`)).text();
    expectReadBack([wire], [json]);
    expect((json as { content: string }).content).toBe(text);
  });
});
