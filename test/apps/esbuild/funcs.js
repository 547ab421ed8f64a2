// A program that bundles one standalone function of 'oz-sdk/funcs' and the OzCore it needs.
import { OzCore, toolsExecute } from 'oz-sdk/funcs';

async function main() {
  const env = globalThis.process?.env ?? {};
  const core = new OzCore({ baseURL: env.OZ_BASE_URL, apiKey: env.OZ_API_KEY, maxRetries: 0 });
  const echo = await toolsExecute(core, 'echo', { text: 'bundled' });
  const missing = await toolsExecute(core, 'no-such-tool', { text: 'x' }).catch((error) => error);
  return { echo: echo.content, error: `${missing.name} ${missing.status} ${missing.code}` };
}

main().then(
  (report) => console.log(JSON.stringify(report)),
  (error) => {
    console.error(error);
    globalThis.process?.exit(1);
  },
);
