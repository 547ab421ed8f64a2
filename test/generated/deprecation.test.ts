import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { resourcesOf } from '../../scripts/codegen/model.mjs';
// @ts-expect-error: the codegen is plain JavaScript without declarations
import { renderOperations, renderResourceFile } from '../../scripts/codegen/render.mjs';

type Doc = { paths: Record<string, Record<string, { deprecated?: boolean; parameters?: Record<string, unknown>[] }>> };
const root = fileURLToPath(new URL('../..', import.meta.url));

/** openapi.json with `getTool` deprecated, and `limit` of `listTools` and `tool` of `executeTool` deprecated parameters. */
function synthetic(): Doc {
  const doc = JSON.parse(readFileSync(`${root}/openapi.json`, 'utf8')) as Doc;
  doc.paths['/v1/tools/{tool}']!.get!.deprecated = true;
  const list = doc.paths['/v1/tools']!.get!;
  list.parameters = list.parameters!.map((p) =>
    p.$ref === '#/components/parameters/Limit'
      ? { name: 'limit', in: 'query', required: false, deprecated: true, description: 'Page size.', schema: { type: 'integer' } }
      : p,
  );
  const execute = doc.paths['/v1/tools/{tool}/execute']!.post!;
  execute.parameters = execute.parameters!.map((p) =>
    p.$ref === '#/components/parameters/Tool'
      ? { name: 'tool', in: 'path', required: true, deprecated: true, description: 'Tool name.', schema: { type: 'string' } }
      : p,
  );
  return doc;
}

describe('deprecated in openapi.json reaches the generated code', () => {
  const model = resourcesOf(synthetic()) as { files: { tag: string }[] };
  const tools = renderResourceFile(model.files.find((f) => f.tag === 'tools')) as string;
  const operations = renderOperations(model) as string;
  // The operation's own descriptor constant (`<id>Operation`).
  const row = (id: string) =>
    operations.slice(operations.indexOf(`const ${id}Operation = {`), operations.indexOf('\n}', operations.indexOf(`const ${id}Operation = {`)));

  it('a deprecated operation: @deprecated in its method TSDoc, deprecated: true in the operations table', () => {
    const getDoc = tools.slice(tools.indexOf('Get one tool'), tools.indexOf('  get<'));
    expect(getDoc).toContain('@deprecated The API description marks this operation deprecated');
    expect(tools.slice(tools.indexOf('List the tools'))).not.toContain('@deprecated');
    expect(row('getTool')).toContain('deprecated: true,');
    expect(row('listTools')).not.toContain('deprecated: true');
  });

  it('deprecated parameters: named in the TSDoc and listed in the operations table', () => {
    expect(row('listTools')).toContain("deprecatedParams: [{ name: 'limit', in: 'query' }]");
    expect(row('executeTool')).toContain("deprecatedParams: [{ name: 'tool', in: 'path' }]");
    expect(row('getTool')).not.toContain('deprecatedParams');
    expect(tools).toContain('Deprecated parameters: `limit` (query)');
    expect(tools).toContain('@param tool - Deprecated. Tool name.');
  });

  it("a deprecated query parameter is @deprecated in the query type (openapi-typescript's output, which the query types alias)", async () => {
    const text = astToString(await openapiTS(synthetic() as never, { alphabetize: false, exportType: false, defaultNonNullable: false }));
    const listTools = text.slice(text.indexOf('    listTools: {'));
    expect(listTools.slice(0, listTools.indexOf('limit?:'))).toContain('@deprecated');
    expect(listTools.slice(listTools.indexOf('limit?:'), listTools.indexOf('cursor?:'))).not.toContain('@deprecated');
  });

  it('openapi.json itself marks nothing deprecated today: the committed table carries no flag', () => {
    const committed = readFileSync(`${root}/src/generated/operations.ts`, 'utf8');
    expect(committed).not.toContain('deprecated');
  });
});
