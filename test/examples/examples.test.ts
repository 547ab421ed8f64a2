/**
 * Every example runs as a user runs it (`node --import tsx examples/<name>.ts`, in a child process) and must
 * exit 0 with the lines that show it did its job, and nothing on stderr. A few examples that can talk to any Oz
 * service (one per way of configuring it: the environment, OZ_MCP_URL, the openai client, streams) run a second
 * time against a listening embedded server through OZ_BASE_URL, OZ_API_KEY and OZ_MCP_URL (real sockets, the
 * answers checked against openapi.json by the test server). The other examples take the same two-line branch.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestServer } from '../support/ozServer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Expectation {
  /** Lines (patterns) the example's standard output must have, in this order. */
  readonly lines: readonly RegExp[];
  /** It talks to any Oz service when OZ_BASE_URL is set (it needs none of the embedded server's controls). */
  readonly remote?: boolean;
  /** Lines that differ over HTTP (timing-dependent lines), instead of `lines`. */
  readonly remoteLines?: readonly RegExp[];
}

/** What the recording in examples/fixtures/recording/ holds: a replay answers these values. */
const RECORDED = (() => {
  const stubs = JSON.parse(readFileSync(new URL('../../examples/fixtures/recording/stubs.json', import.meta.url), 'utf8')) as Array<{
    operationId: string;
    answer: { body: Record<string, string> };
  }>;
  const body = (operationId: string) => stubs.find((s) => s.operationId === operationId)!.answer.body;
  return { itemId: body('createCompanyItem').id!, executionId: body('executeTool').execution_id! };
})();

const EXAMPLES: Readonly<Record<string, Expectation>> = {
  'recording-and-parity.ts': {
    lines: [
      new RegExp(`^${RECORDED.itemId} intake$`, 'm'),
      new RegExp(`^hello ${RECORDED.executionId}$`, 'm'),
      /^true tool_not_found$/m,
      /^true$/m,
      /^createCompanyItem 201$/m,
    ],
  },
  'tour.ts': {
    lines: [
      /^1\. Create an item in acme\/hq/m,
      /^ {3}walking: intake → plan → build → review → done \([\d.]+ s\)$/m,
      /^ {3}last output: review: build: plan: Ship the release notes$/m,
      /^ {3}markdown {2}"hello, Oz\\n\\n---\\nexecution_id: exe_\w+\\n"$/m,
      /^ {3}text {6}"hello, Oz"$/m,
      /^ {3}Here is a draft for: a haiku about green tea$/m,
      /^ {3}waiting: queued \.* ?(running \.* ?)?succeeded \(\d+ polls, [\d.]+ s\)$/m,
      /^ {3}page 1: workflow draft-and-review \(succeeded\), agent writer \(succeeded\), tool echo \(succeeded\)$/m,
      /^ {3}ConnectionRequiredError: 424 connection_required: This call needs a crm connection on the account\.$/m,
      /^ {3}connect: oauth crm at POST \/v1\/connections\/crm\/link$/m,
      /^ {3}retried → CRM contact for ada@example\.com: found, customer since 2024\.$/m,
      /^ {3}user demo, tier pro, key "demo key" \(platform_key\)$/m,
      /^Tour done in [\d.]+ s\.$/m,
    ],
  },
  'quickstart.ts': {
    remote: true,
    lines: [/^itm_\w+ intake$/m, /^hello exe_\w+$/m, /^Here is a draft for: a tagline for a tea shop$/m],
  },
  'lazy-client.ts': {
    lines: [/^at module scope: No base URL: pass `baseURL` or set OZ_BASE_URL/m, /^first request: 200 \{"content":"lazy"\}$/m],
  },
  'items.ts': {
    lines: [
      /^intake active api$/m,
      /^intake → plan → build → review → done$/m,
      /^review: build: plan: Write the launch post/m,
      /^lab intake$/m,
      /^Calibrate the sensors$/m,
      /^active in lab: itm_\w+ Calibrate the sensors$/m,
      /^404 company_not_found$/m,
      /^422 invalid_params: title must be a string of 1 to 300 characters\.$/m,
    ],
  },
  'tools-and-wires.ts': {
    remote: true,
    lines: [
      /^echo: Answers its text back\.$/m,
      /required: \[ 'a', 'b' \]/,
      /^5\n5\n"5\\n\\n---\\nexecution_id: exe_\w+\\n"\n5$/m,
      /^inside params \| sent as YAML$/m,
      /^hi 200 req_\w+ exe_\w+ \d+$/m,
      /^invalid_params \[ 'b' \]$/m,
    ],
  },
  'agent-streaming.ts': {
    remote: true,
    lines: [
      /^Here is a draft for: a haiku about tea\ntrue exe_\w+$/m,
      /^7 tokens, then: Here is a draft for: three words$/m,
      /^forwarded 6 token events and the result event$/m,
      /^refused: 409 approval_required$/m,
      /^cut after "[^"]+"; waiting for exe_\w+$/m,
      /^Here is a draft for: a story about a lighthouse keeper$/m,
    ],
    // No fault over HTTP: the stream is not cut.
    remoteLines: [
      /^7 tokens, then: Here is a draft for: three words$/m,
      /^forwarded 6 token events/m,
      /^refused: 409 approval_required$/m,
      /^Here is a draft for: a story about a lighthouse keeper$/m,
    ],
  },
  'workflows.ts': {
    lines: [
      /^Here is a draft for: Shorten this: Here is a draft for: an announcement of the new office$/m,
      /^Here is a draft for: Shorten this: Here is a draft for: a note for the team$/m,
      /^wfl_\w+ weekly-summary$/m,
      /^Here is a draft for: Review this: Here is a draft for: A weekly summary of platform's work: shipped v2$/m,
      /^\[draft: started\]\n\[draft: succeeded\]\n\[review: started\]\n\[review: succeeded\]\nresult: .*fixed the build$/m,
      /^draft-and-review\nweekly-summary$/m,
    ],
  },
  'async-polling.ts': {
    lines: [
      /status: 'queued'/,
      /^status: succeeded\nHere is a draft for: a long report$/m,
      /^Waited 200 ms\.$/m,
      /^tool slow succeeded /m,
      /^Execution exe_\w+ is still (queued|running) after waiting 300 ms \(the wait's timeout\); the run goes on\.\ncancelled$/m,
    ],
  },
  'errors-as-values.ts': {
    lines: [/^no such tool \(404, request req_\w+\)$/m, /^\$\.name 42 req_$/m, /^42$/m],
  },
  'paging.ts': {
    lines: [/^7 sum executions$/m, /^\[ '17', '16', '15' \]$/m, /^1 last page$/m, /^crm_lookup, echo\nslow, sum$/m],
  },
  'schedules.ts': {
    lines: [
      /^sch_\w+ 2026-11-23T08:00:00\.000Z$/m,
      /^Here is a draft for: the morning digest$/m,
      /^writer runs: 2$/m,
      /^next run: 2026-11-24T08:00:00\.000Z$/m,
      /^morning digest 0 9 \* \* 1-5 Europe\/Paris true$/m,
    ],
  },
  'errors-and-retries.ts': {
    lines: [
      /^409 approval_required Resend it with approved: true once a person has approved it\.$/m,
      /^req_\w+ exe_\w+$/m,
      /link: 'POST \/v1\/connections\/crm\/link'/,
      /^pending https:\/\/\S+\/connections\/crm$/m,
      /^CRM contact for ada@example\.com: found, customer since 2024\.$/m,
      /^third time lucky \[ 500, 500, 200 \]$/m,
      /^true 500 internal_error$/m,
      /^rate_limited retry after 3600 s$/m,
      /^executeTool attempt 0 UpstreamError: again in 100 ms$/m,
      /^executeTool attempt 1 UpstreamError: again in 200 ms$/m,
      /^patience$/m,
      /^\[ '0', '1', '2' \]$/m,
      /^OzConnectionError /m,
    ],
  },
  'idempotency.ts': {
    lines: [
      /^exe_invoice-1042$/m,
      /^duplicate_execution_id$/m,
      /^succeeded invoice 1042 sent$/m,
      /^charge card 4242 exe_charge-7$/m,
      /^\[ '200 \(lose\)', '409' \]$/m,
      /^Ship 1\.0 true$/m,
      /^1$/m,
      /^409 idempotency_conflict$/m,
    ],
  },
  'mcp.ts': {
    remote: true,
    lines: [
      /^demo pro demo key \d+$/m,
      /^oz-mock \S+$/m,
      /^svc_whoami, svc_get_result, svc_followup, writer, approver$/m,
      /^Here is a draft for: a limerick about queues\n\n---\nexecution_id: exe_\w+$/m,
      /^Here is a draft for: a product name \| Here is a draft for: a product name$/m,
      /^Here is a draft for: make it shorter$/m,
      /^\[ 'svc_whoami' \]$/m,
      /^-32602 writer MCP error -32602: Tool writer is outside this key's fence\.$/m,
    ],
    // The fence needs the embedded server's addKey.
    remoteLines: [/^demo pro demo key \d+$/m, /^svc_whoami, svc_get_result, svc_followup, writer, approver$/m, /^Here is a draft for: make it shorter$/m],
  },
  'models-openai.ts': {
    remote: true,
    lines: [
      /^\[ 'oz-chat', 'oz-embed' \]$/m,
      /^oz-chat oz$/m,
      /^Hello from oz-chat\. You said: Hello!$/m,
      /^Hello from oz-chat\. You said: Stream, please\.$/m,
      /^16 dimensions$/m,
      /^Hello from oz-chat\. You said: Hello!$/m,
    ],
  },
  'client-options.ts': {
    remote: true,
    lines: [
      /^one call$/m,
      /^0 2000$/m,
      /^debug \[oz executeTool #2\] POST http:\/\/\S+\/v1\/tools\/echo\/execute \(attempt 1 of 4\) .*"authorization":"\[redacted\]"/m,
      /^Oz \{"baseURL":"http:\/\/\S+","apiKey":"\[redacted\]","maxRetries":3,"timeout":30000,"authHeader":"bearer","logLevel":"info"\}$/m,
      /^typed$/m,
      /^the key appears in 0 log lines, and in JSON: false$/m,
      /^x-team on the call that removed it: null$/m,
    ],
  },
  'safety.ts': {
    lines: [
      /^refused: Path parameter "tool" of executeTool \(POST \/v1\/tools\/\{tool\}\/execute\)$/m,
      /^refused: Path parameter "path" of proxyDelete \(DELETE \/v1\/proxy\/\{provider\}\/\{path\}\)$/m,
      /^The header "x-trace-id" \(from idempotencyKey\) has a value holding a line break \(CR or LF\)/m,
      /^The query parameter "tag" \(from options\.query\) is an object \(\[object Object\]\); .* Nothing was sent\.$/m,
      /^The body of executeTool cannot be written as JSON: body\.params\.order refers back to an object that holds it \(a cycle\)\. Nothing was sent\.$/m,
      /^308 to https:\/\/elsewhere\.example\/v1\/tools: not followed$/m,
      /^OzStreamEventTooLargeError after 64 bytes; the run went on: Here is a draft for: a haiku about tea$/m,
    ],
  },
  'http-options.ts': {
    lines: [
      /^\/contacts\/42 \{ tenant: 'acme-eu', fields: 'name,email' \}$/m,
      /^\/contacts \{ q: 'ada', limit: '5' \}$/m,
      /^tenant on the wire: tenant=acme-eu&fields=name%2Cemail$/m,
    ],
  },
  'raw-calls.ts': {
    remote: true,
    lines: [/^echo \[ 'text' \]$/m, /^raw call true$/m, /^name: sum$/m, /^404 tool_not_found$/m],
  },
  'tracing.ts': {
    lines: [/^executeTool POST 200$/m, /^exe_\w+ req_\w+$/m, /^\[ 'retry' \] 1$/m, /^true$/m],
  },
  'embedded-server.ts': {
    lines: [
      /^in process \| over HTTP$/m,
      /^Sunny in Lyon\.$/m,
      /^plan 2026-01-05T09:00:00\.010Z$/m,
      /^done 2026-01-05T09:00:00\.040Z$/m,
      /^\[ '12:00', '11:00', '10:00' \]$/m,
      /^3 true$/m,
      /^delay$/m,
      /^0$/m,
      /^404$/m,
      /^\[ 200, 422 \]$/m,
    ],
  },
  'builders.ts': {
    lines: [
      /^itm_ parked 2026-11-21T12:00:00\.000Z$/m,
      /^true$/m,
      /^build\.item\(\): not a valid Item of openapi\.json at \$\.priority: priority must be an integer\.$/m,
      /^\{"error":\{"code":"item_not_found","message":"No item itm_x\."\}\}$/m,
      /^\{"data":\[\],"next_cursor":"cursor_2"\}$/m,
      /^true$/m,
      /^\[\{"path":"path\.id","expected":"itm_x","actual":"itm_y"\}\]$/m,
      /^Expected 1 request matching \{"operationId":"getCompanyItem","path":"\/v1\/companies\/acme\/items\/itm_x"\}, found 0\.$/m,
      /^ {2}1\. GET \/v1\/companies\/acme\/items\/itm_y \(req_\w+, 404\): path expected "\/v1\/companies\/acme\/items\/itm_x", got "\/v1\/companies\/acme\/items\/itm_y"$/m,
      /^path\.id$/m,
      /^ozk_BuildersExampleKey00000000000001$/m,
    ],
  },
  'agents-mcp.ts': {
    lines: [
      /^server_info, reset, capture_baseline, load_fixtures, add_stub, list_stubs, remove_stub, clear_stubs, add_fault, .*, open_session, close_session$/m,
      /^echo$/m,
      /^\[\{"path":"path\.tool","expected":"echoo","actual":"echo"\}\]$/m,
      /^true 422 invalid_params operationId names no operation of openapi\.json: nope\.$/m,
    ],
  },
  'control-plane.ts': {
    lines: [
      /^Price of gold: 2000 USD$/m,
      /^hello!$/m,
      /^422 tools\[1\]\.answer must be a string\. Nothing of the document was added\.$/m,
      /^RateLimitedError$/m,
      /^429 error Bearer ozk_Shop…$/m,
      /^quote: Price of tea: 10 USD$/m,
      /^404$/m,
      /^back!$/m,
    ],
  },
  'sign-in.ts': {
    lines: [
      /^Open this URL to sign in: http:\/\/127\.0\.0\.1:\d+\/dashboard\/api\/cli\/authorize\?port=\d+&state=…$/m,
      /^Signed in: key "cli sign-in" \(ozk_\w{4}…\), tier pro, expires \d{4}-\d\d-\d\dT/m,
      /^whoami: cli sign-in$/m,
    ],
  },
  'key-rotation.ts': {
    lines: [
      /^before: demo key$/m,
      /^after: production 2026-12 pro$/m,
      /^old key right after revoking: demo key$/m,
      /^old key now: 401 unauthorized: This key was revoked\.$/m,
      /^new key now: new key$/m,
      /^provider: production 2027-01$/m,
      /^still serving: no downtime$/m,
    ],
  },
  'middleware.ts': {
    lines: [
      /^executeTool attempt 0: 500 in \d+ ms$/m,
      /^executeTool attempt 1: 500 in \d+ ms$/m,
      /^executeTool attempt 2: 200 in \d+ ms$/m,
      /^seen three times$/m,
      /^billing$/m,
      /^getTool attempt 0: 200 in \d+ ms$/m,
      /^from my cache$/m,
      /^OzMiddlewareError middleware\[1\] threw: deletes are off today$/m,
    ],
  },
  'standalone-functions.ts': {
    remote: true,
    lines: [/^true one function$/m, /^true tool_not_found$/m],
  },
  'raw-responses.ts': {
    remote: true,
    lines: [/^200 text\/plain; charset=utf-8 false$/m, /^read it yourself$/m, /^parsed true true$/m],
  },
};

// Variables a developer may have set for a real service: the examples must not see them unless a test sets them.
const OZ_VARIABLES = ['OZ_BASE_URL', 'OZ_API_KEY', 'OZ_MCP_URL', 'OZ_DASHBOARD_URL', 'OZ_LOG'];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// Two child processes at a time: each one loads tsx and the sources, which is most of its time.
const MAX_CHILDREN = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function runExample(file: string, env: Record<string, string> = {}): Promise<Run> {
  if (running >= MAX_CHILDREN) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const name of OZ_VARIABLES) if (!(name in env)) delete childEnv[name];
    return await new Promise<Run>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', `examples/${file}`], { cwd: ROOT, env: childEnv, timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function expectLinesInOrder(output: string, patterns: readonly RegExp[]): void {
  let rest = output;
  for (const pattern of patterns) {
    const match = pattern.exec(rest);
    expect(match, `expected ${pattern} in:\n${rest}`).not.toBeNull();
    rest = rest.slice(match!.index + match![0].length);
  }
}

describe('examples/', () => {
  it('every example file is run by this test', () => {
    const files = readdirSync(new URL('../../examples/', import.meta.url)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files.sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  describe.concurrent('each example runs and shows it did its job', () => {
    for (const [file, expectation] of Object.entries(EXAMPLES)) {
      it(file, { timeout: 90_000 }, async () => {
        const run = await runExample(file);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expectLinesInOrder(run.stdout, expectation.lines);
      });
    }
  });

  describe.concurrent('examples that talk to any Oz service, with OZ_BASE_URL set', () => {
    for (const [file, expectation] of Object.entries(EXAMPLES)) {
      if (!expectation.remote) continue;
      it(file, { timeout: 90_000 }, async () => {
        const server = createTestServer();
        const listener = await server.listen();
        try {
          const run = await runExample(file, { OZ_BASE_URL: listener.url, OZ_API_KEY: server.apiKey, OZ_MCP_URL: listener.mcpUrl });
          expect(run.stderr).toBe('');
          expect(run.code).toBe(0);
          expectLinesInOrder(run.stdout, expectation.remoteLines ?? expectation.lines);
          // It really went over the sockets of this server.
          expect(server.journal.entries.every((entry) => entry.mount === 'http')).toBe(true);
          expect(server.journal.count()).toBeGreaterThan(0);
        } finally {
          await listener.close();
          await server.close();
        }
      });
    }
  });
});
