// A program as a Lambda handler or a script would be: the whole client from 'oz-sdk', an echo and a typed error.
import { ERROR_CODES, Oz, OzAPIError, RateLimitedError, ToolNotFoundError } from 'oz-sdk';

async function main() {
  const env = globalThis.process?.env ?? {};
  const oz = new Oz({ baseURL: env.OZ_BASE_URL, apiKey: env.OZ_API_KEY, maxRetries: 0 });
  const echo = await oz.tools.execute('echo', { text: 'bundled' });
  const missing = await oz.tools.execute('no-such-tool', { text: 'x' }).catch((error) => error);
  const typed = missing instanceof ToolNotFoundError && missing instanceof OzAPIError && !(missing instanceof RateLimitedError);
  // Classes reached through the code table only: a minifier renames them, or inlines them there.
  const noAgent = await oz.agents.execute({ agent: 'no-such-agent', user_request: 'x' }).catch((error) => error);
  const tableClasses = noAgent instanceof ERROR_CODES.agent_not_found.class && !(noAgent instanceof ERROR_CODES.workflow_not_found.class);
  return { echo: echo.content, error: `${missing.name} ${missing.status} ${missing.code}`, typed, tableClasses };
}

main().then(
  (report) => console.log(JSON.stringify(report)),
  (error) => {
    console.error(error);
    globalThis.process?.exit(1);
  },
);
