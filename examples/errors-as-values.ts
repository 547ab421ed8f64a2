/**
 * Errors as values and response validation: `result()` answers `{ data, error }` instead of throwing, its error
 * typed as exactly what that call can fail with; `validate: 'strict'` checks every answer against openapi.json.
 *
 *   node --import tsx examples/errors-as-values.ts
 *
 * The drifted answer here is made by a `fetch` that rewrites the embedded server's answer, so this example
 * always uses it.
 */
import { Oz, OzResponseValidationError, type FetchLike } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });

// #region result
const { data: tool, error } = await oz.tools.get('no_such_tool').result();
if (error) {
  // The compiler knows every code tools.get can answer: a case it cannot answer does not compile.
  switch (error.code) {
    case 'tool_not_found':
      console.log(`no such tool (${error.status}, request ${error.requestId})`);
      break;
    case 'connection_error':
    case 'timeout_error':
      console.log('no answer; try again later');
      break;
    default:
      console.log(`${error.code}: ${error.message}`);
  }
} else {
  console.log(tool.name);
}
// #endregion

// A service that drifted from openapi.json: the tool's name comes as a number.
const drifted: FetchLike = async (input, init) => {
  const answer = await server.fetch(input, init);
  const body = { ...((await answer.json()) as object), name: 42 };
  return Response.json(body, { status: answer.status, headers: answer.headers });
};

// #region validate
const strict = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: drifted, validate: 'strict' });
try {
  await strict.tools.get('echo');
} catch (error) {
  if (error instanceof OzResponseValidationError) {
    console.log(error.path, error.value, error.requestId?.slice(0, 4)); // $.name 42 req_
  }
}
// Per call too: 'warn' logs the first mismatch of each operation and hands the data over.
const unchecked = await strict.tools.get('echo', { validate: 'off' });
console.log(unchecked.name); // 42
// #endregion
await server.close();
