// The app: an HTTP service whose tool calls go through the CommonJS module (tools.cjs), and whose error filter,
// written here, tells the client's errors apart with the classes this ES module imports.
import { createServer } from 'node:http';
import { OzAPIError, OzError } from 'oz-sdk';
import tools from './tools.cjs';

/** The status and body an error answers with: an API error keeps its status and code, another OzError is a 502. */
export function errorFilter(error) {
  if (error instanceof OzAPIError) return [error.status, { code: error.code }];
  if (error instanceof OzError) return [502, { code: error.code ?? 'oz_error' }];
  return [500, { code: 'internal_error' }];
}

/** `GET /tools/<name>` executes the tool and answers its content, or the error filter's answer. */
export function createApp() {
  return createServer(async (request, response) => {
    const tool = decodeURIComponent(new URL(request.url, 'http://app').pathname.replace(/^\/tools\//, ''));
    const [status, body] = await tools.execute(tool).then((result) => [200, { content: result.content }], errorFilter);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
}
