/**
 * The tour (`npm start`): the SDK's main features in a few seconds, against an embedded Oz server that runs in
 * this process (no account, no network). Every step is a real call through the `Oz` client.
 *
 * Each step has its own example in this folder with more detail; docs/ shows the rest.
 */
import { ConnectionRequiredError, Oz, type Item } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

// The server paces its own work (pipeline steps, async runs, stream tokens) slowly enough to watch.
const server = createOzServer({ timing: { stepMs: 250, tokenMs: 40 } });
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });

const out = (line = '') => process.stdout.write(`${line}\n`);
const heading = (n: number, title: string) => out(`\n${n}. ${title}`);
const short = (text: string, max = 72) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createAndWatchItem(): Promise<void> {
  heading(1, 'Create an item in acme/hq and watch it walk the pipeline (plan, build, review)');
  let item: Item = await oz.companies.items.create('acme', { building: 'hq', title: 'Ship the release notes' });
  out(`   created ${item.id} at step ${item.step}`);
  // A progress line: each step the item reaches is added to it as it happens.
  process.stdout.write(`   walking: ${item.step}`);
  const started = Date.now();
  while (item.status === 'active') {
    await sleep(50);
    const next = await oz.companies.items.get('acme', item.id);
    if (next.step !== item.step) process.stdout.write(` → ${next.step}`);
    item = next;
  }
  out(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  out(`   last output: ${item.last_output}`);
}

async function executeOnEachWire(): Promise<void> {
  heading(2, 'Execute a tool on each wire: one result, four formats');
  const json = await oz.tools.execute('echo', { text: 'hello, Oz' });
  out(`   json      ${JSON.stringify(json)}`);
  const yamlResult = await oz.tools.execute('echo', { text: 'hello, Oz' }, { format: 'yaml' });
  out(`   yaml      parsed the same way: content ${JSON.stringify(yamlResult.content)}, ok ${yamlResult.ok}`);
  const markdown = await oz.tools.execute('echo', { text: 'hello, Oz' }, { format: 'markdown' });
  out(`   markdown  ${JSON.stringify(markdown)}`);
  const text = await oz.tools.execute('echo', { text: 'hello, Oz' }, { format: 'text' });
  out(`   text      ${JSON.stringify(text)}`);
}

async function streamTheWriter(): Promise<void> {
  heading(3, "Stream the writer agent's tokens");
  const stream = await oz.agents.execute({ agent: 'writer', user_request: 'a haiku about green tea', stream: true });
  process.stdout.write('   ');
  let tokens = 0;
  for await (const delta of stream.textDeltas()) {
    process.stdout.write(delta);
    tokens++;
  }
  const result = await stream.finalResult();
  out(`\n   (${tokens} tokens, then the result event: ok ${result.ok}, ${result.execution_id})`);
}

async function runWorkflowAsync(): Promise<void> {
  heading(4, 'Run the stored workflow draft-and-review async, and wait for it');
  const pointer = await oz.workflows.executeStored('draft-and-review', { input: 'notes from the planning meeting', async: true });
  out(`   202 async pointer: ${pointer.execution_id}, status ${pointer.status}`);
  // The progress line: the status of each poll, and a dot every 150 ms in between. While the run is unfinished
  // the server's answers suggest when to poll again (`retry-after-ms`), and wait() honours it between polls.
  let last = '';
  let polls = 0;
  process.stdout.write('   waiting: ');
  const ticker = setInterval(() => process.stdout.write('.'), 150);
  const started = Date.now();
  const done = await pointer
    .wait({
      onProgress: (record) => {
        polls++;
        if (record.status !== last) process.stdout.write(`${last ? ' ' : ''}${record.status} `);
        last = record.status;
      },
    })
    .finally(() => clearInterval(ticker));
  out(`(${polls} polls, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  out(`   result: ${short(done.content)}`);
}

async function pageThroughExecutions(): Promise<void> {
  heading(5, 'Page through the executions so far, three per page');
  let pageNumber = 0;
  for await (const page of oz.executions.list({ limit: 3 }).iterPages()) {
    pageNumber++;
    const rows = page.data.map((execution) => `${execution.kind} ${execution.target} (${execution.status})`);
    out(`   page ${pageNumber}: ${rows.join(', ')}`);
  }
}

async function catchATypedError(): Promise<void> {
  heading(6, 'Catch a typed error: crm_lookup needs a crm connection');
  const lookup = () => oz.tools.execute('crm_lookup', { query: 'ada@example.com' });
  try {
    await lookup();
  } catch (error) {
    if (!(error instanceof ConnectionRequiredError)) throw error;
    out(`   ${error.name}: ${error.message}`);
    out(`   connect: ${error.connect?.method} ${error.connect?.provider} at ${error.connect?.link}`);
    const connection = await oz.connections.link('crm');
    out(`   connections.link('crm') → ${connection.status}; the account holder consents at ${connection.url}`);
    // The embedded server stands in for that person's consent.
    server.linkConnection('demo', 'crm');
    const retried = await lookup();
    out(`   retried → ${retried.content}`);
  }
}

async function whoAmI(): Promise<void> {
  heading(7, 'Ask the MCP server who this key is (svc_whoami)');
  const me = await oz.mcp.whoami();
  out(`   user ${me.user}, tier ${me.tier}, key "${me.key_label}" (${me.auth_type})`);
  out(`   ${me.rate_limit.remaining.toLocaleString('en-US')} of ${me.rate_limit.limit.toLocaleString('en-US')} requests left in this window`);
}

export async function main(): Promise<void> {
  const started = Date.now();
  out('The oz-sdk tour: the Oz client against an embedded Oz server (in memory, seeded with the demo account)');
  try {
    await createAndWatchItem();
    await executeOnEachWire();
    await streamTheWriter();
    await runWorkflowAsync();
    await pageThroughExecutions();
    await catchATypedError();
    await whoAmI();
  } finally {
    await server.close();
  }
  out(`\nTour done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  out('Next: one example per task in examples/ (node --import tsx examples/<name>.ts), docs/README.md,');
  out('and `npx oz-mock --port 4010` for an Oz server on a real port.');
}

await main();
