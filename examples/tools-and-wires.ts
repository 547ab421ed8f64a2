/**
 * Tools, and the four wires one result can travel on: json and yaml answer the parsed envelope, markdown and
 * text answer a string. Request bodies can be JSON or YAML.
 *
 *   node --import tsx examples/tools-and-wires.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import { InvalidParamsError, Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region discover
for await (const tool of oz.tools.list()) console.log(`${tool.name}: ${tool.description}`);
const card = await oz.tools.get('sum');
console.log(card.input_schema); // { type: 'object', properties: { a: ..., b: ... }, required: ['a', 'b'] }
// #endregion

// #region wires
// json (the default): the parsed envelope { ok, content, execution_id, request_id }
const json = await oz.tools.execute('sum', { a: 2, b: 3 });
console.log(json.content); // 5

// yaml: the same envelope, parsed (timestamps stay strings)
const yaml = await oz.tools.execute('sum', { a: 2, b: 3 }, { format: 'yaml' });
console.log(yaml.content); // 5

// markdown: a string, the content then a footer naming the execution
const markdown = await oz.tools.execute('sum', { a: 2, b: 3 }, { format: 'markdown' });
console.log(JSON.stringify(markdown)); // "5\n\n---\nexecution_id: exe_...\n"

// text: only the bare content
const text = await oz.tools.execute('sum', { a: 2, b: 3 }, { format: 'text' });
console.log(text); // 5
// #endregion

// #region params
// Tool fields go at the top level or inside `params`; the body can travel as YAML.
const inParams = await oz.tools.execute('echo', { params: { text: 'inside params' } });
const asYaml = await oz.tools.execute('echo', { text: 'sent as YAML' }, { bodyFormat: 'yaml' });
console.log(inParams.content, '|', asYaml.content);
// #endregion

// #region metadata
// withResponse(): the data plus the raw Response, the request id, the execution id and the rate-limit headers.
const { data, response, requestId, executionId, rateLimit } = await oz.tools.execute('echo', { text: 'hi' }).withResponse();
console.log(data.content, response.status, requestId, executionId, rateLimit?.remaining);
// #endregion

// #region error-wire
// Errors follow the wire too, and the SDK throws the same typed error whatever the wire.
try {
  await oz.tools.execute('sum', { a: 2 }, { format: 'text' });
} catch (error) {
  if (error instanceof InvalidParamsError)
    console.log(error.code, error.missing); // invalid_params [ 'b' ]
  else throw error;
}
// #endregion

await server?.close();
