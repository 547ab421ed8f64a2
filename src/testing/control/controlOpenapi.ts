/**
 * The control plane's own OpenAPI 3.1 document (served at `GET /_oz/openapi.json`). The router is built from
 * it: every operation here has its handler, and no route exists that is not here.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (description: string, schema: unknown = ref('Ok')) => ({ description, content: json(schema) });
/** An answer that is not JSON: the console's page, script and style sheet, the live feed. */
const textAnswer = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: { type: 'string' } } } });
const err = (description: string) => ({ description, content: json(ref('ErrorEnvelope')) });
const STANDARD_ERRORS = { '401': err('Missing or wrong admin token (nothing changed).') };
const INVALID = { '422': err('invalid_params: a bad field, named in the message (nothing changed).'), '400': err('invalid_json: the body is not JSON.') };
const idParam = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description });
const KEY_KIND = { enum: ['platform', 'models', 'proxy'] };
const CONNECTION_METHOD = { enum: ['oauth', 'api_key', 'wallet'] };
const CONNECTION_STATUS = { enum: ['pending', 'linked'] };
/** A listing's envelope: `{ data: [...] }`. */
const listOf = (name: string) => ({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref(name) } } });
const ACCOUNT_QUERY = { name: 'account', in: 'query', schema: { type: 'string' }, description: 'Only this account (unknown: 422).' };
const body = (schema: unknown, required = true, extra: Record<string, unknown> = {}) => ({ required, content: { ...json(schema), ...extra } });

function op(operationId: string, summary: string, responses: Record<string, unknown>, more: Record<string, unknown> = {}) {
  return { operationId, summary, tags: ['control'], ...more, responses: { ...responses, ...STANDARD_ERRORS } };
}

/** An operation that also exists under `/_oz/sessions/{session}/`, acting on that session alone. */
function scoped<T extends object>(operation: T): T & { readonly 'x-oz-in-sessions': true } {
  return { ...operation, 'x-oz-in-sessions': true };
}

/** The vendor field naming the operation a session route copies (its handler is that operation's). */
export const SESSION_COPY_OF = 'x-oz-session-copy-of';

const SESSION_PARAM = idParam('session', 'The session id (ses_...).');

type PathItem = Readonly<Record<string, Readonly<Record<string, unknown>> & { operationId: string; parameters?: readonly unknown[] }>>;

/**
 * The session copies of the scoped operations: `/_oz/sessions/{session}` + the path, operationId + `InSession`,
 * the session's id as a path parameter, and 404 `session_not_found` for a session that is not live.
 */
function sessionCopies(paths: Readonly<Record<string, PathItem>>): Record<string, PathItem> {
  const out: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(paths)) {
    const copies = Object.entries(item).filter(([, operation]) => operation['x-oz-in-sessions'] === true);
    if (copies.length === 0) continue;
    out[`/_oz/sessions/{session}${path.slice('/_oz'.length)}`] = Object.fromEntries(
      copies.map(([method, operation]) => {
        const { 'x-oz-in-sessions': _, ...rest } = operation;
        const responses = {
          ...(operation.responses as Record<string, unknown>),
          '404': err('session_not_found: no live session has this id (or a 404 of the operation itself).'),
        };
        return [
          method,
          {
            ...rest,
            operationId: `${operation.operationId}InSession`,
            tags: ['session'],
            [SESSION_COPY_OF]: operation.operationId,
            parameters: [SESSION_PARAM, ...(operation.parameters ?? [])],
            responses,
          },
        ];
      }),
    );
  }
  return out;
}

const COUNT = { type: 'integer', minimum: 0 };

/**
 * The JSON Schema of a coverage report (`server.coverage()`, `GET /_oz/coverage`, `oz-mock --coverage FILE.json`):
 * the schema `OzCoverageReport` is held to by a test.
 */
export const COVERAGE_SCHEMA = {
  type: 'object',
  required: ['operations', 'summary'],
  additionalProperties: false,
  properties: {
    operations: {
      type: 'array',
      description: 'Every operation of openapi.json, in its order.',
      items: {
        type: 'object',
        required: ['operationId', 'calls', 'responses'],
        additionalProperties: false,
        properties: {
          operationId: { type: 'string' },
          calls: { ...COUNT, description: 'Requests of the run it received (a dropped one too: it got no response).' },
          responses: {
            type: 'array',
            description: 'Every response it declares (by status, then streamed, then code), then the undeclared ones it gave.',
            items: {
              type: 'object',
              required: ['status', 'code', 'streamed', 'count', 'by', 'declared'],
              additionalProperties: false,
              properties: {
                status: { type: 'integer', minimum: 100, maximum: 599 },
                code: {
                  type: ['string', 'null'],
                  description: 'The error code (X-Error-Code); null for a success or an error status the document names no code for.',
                },
                streamed: { type: 'boolean', description: 'The answer is an event stream (text/event-stream).' },
                count: { ...COUNT, description: 'Requests of the run that got it.' },
                by: {
                  type: 'object',
                  required: ['handler', 'stub', 'fault', 'chaos'],
                  additionalProperties: false,
                  description:
                    'What gave it: the server itself, a stub, a fault (an error, or a cut or lose that took the answer away), a chaos rule; they add up to count.',
                  properties: { handler: COUNT, stub: COUNT, fault: COUNT, chaos: COUNT },
                },
                declared: { type: 'boolean', description: 'openapi.json declares it; false: an answer outside it (an unchecked stub), never in the share.' },
              },
            },
          },
        },
      },
    },
    summary: {
      type: 'object',
      required: ['declared', 'covered', 'share'],
      additionalProperties: false,
      description: 'Over the declared responses of the operations called at least once.',
      properties: {
        declared: COUNT,
        covered: COUNT,
        share: { type: 'number', minimum: 0, maximum: 1, description: 'covered / declared (0 when nothing was called).' },
      },
    },
  },
} as const;

/** The routes of the default session and the server (the session copies are derived from them). */
const BASE_PATHS = {
  '/_oz/openapi.json': {
    get: op('getControlOpenapi', 'This document (no token needed).', { '200': ok('The document.', { type: 'object' }) }, { security: [] }),
  },
  '/_oz/reset': {
    post: scoped(
      op(
        'reset',
        'Back to the baseline: seed, fixture files given at start, then the last captured baseline. Clears journal, faults and chaos (the rules of --chaos FILE are set again), and the coverage counts unless `coverage: keep`.',
        { '200': ok('Reset.'), ...INVALID },
        {
          requestBody: body(
            {
              type: 'object',
              additionalProperties: false,
              properties: { coverage: { enum: ['keep', 'clear'], default: 'clear', description: '`keep`: the coverage counts live on across the reset.' } },
            },
            false,
          ),
        },
      ),
    ),
  },
  '/_oz/baseline': {
    post: scoped(
      op('captureBaseline', 'The current state becomes the baseline (waits for work in flight first).', {
        '200': ok('Captured.'),
        '504': err('timeout: work still in flight.'),
      }),
    ),
  },
  '/_oz/fixtures': {
    post: scoped(
      op(
        'loadFixtures',
        'Adds a fixture document (JSON or YAML), checked whole before anything is written.',
        { '200': ok('What was added.', ref('FixtureSummary')), ...INVALID },
        { requestBody: body(ref('FixtureDocument'), true, { 'application/yaml': { schema: ref('FixtureDocument') } }) },
      ),
    ),
  },
  '/_oz/state': {
    get: scoped(op('exportState', 'The whole state as one JSON document (with its format version).', { '200': ok('The state.', ref('StateDocument')) })),
    put: scoped(
      op(
        'importState',
        'Replaces the state with a document from GET /_oz/state.',
        { '200': ok('Replaced.'), ...INVALID },
        { requestBody: body(ref('StateDocument')) },
      ),
    ),
  },
  '/_oz/state/save': {
    post: op('saveState', 'Writes the state to the --state file (a temporary file, then a rename).', {
      '200': ok('Written.', { type: 'object', required: ['path'], properties: { path: { type: 'string' } } }),
      '409': err('no_state_file: the server was started without --state.'),
    }),
  },
  '/_oz/faults': {
    get: scoped(op('listFaults', 'The pending faults.', { '200': ok('The faults.', listOf('Fault')) })),
    post: scoped(
      op(
        'addFault',
        'Arms one fault (the in-process fault fields). An unknown operationId answers 422.',
        { '201': ok('The fault.', ref('Fault')), ...INVALID },
        { requestBody: body(ref('FaultSpec')) },
      ),
    ),
    delete: scoped(op('clearFaults', 'Withdraws every fault.', { '200': ok('Cleared.') })),
  },
  '/_oz/faults/{id}': {
    delete: scoped(
      op(
        'cancelFault',
        'Withdraws one fault.',
        { '200': ok('Withdrawn.'), '404': err('fault_not_found.') },
        { parameters: [idParam('id', 'The fault id (flt_...).')] },
      ),
    ),
  },
  // Chaos: what server.chaos.set, get and clear do in process.
  '/_oz/chaos': {
    get: scoped(op('getChaos', 'The chaos document set (`chaos: null` when none).', { '200': ok('The chaos.', ref('ChaosState')) })),
    put: scoped(
      op(
        'setChaos',
        'Replaces the chaos rules and starts their generator at the seed; a bad document answers 422 naming the field and changes nothing.',
        { '200': ok('The chaos set.', ref('ChaosState')), ...INVALID },
        { requestBody: body(ref('ChaosDocument')) },
      ),
    ),
    delete: scoped(op('clearChaos', 'Withdraws every chaos rule.', { '200': ok('Cleared.') })),
  },
  '/_oz/clock': {
    get: scoped(op('getClock', 'The server clock.', { '200': ok('The clock.', ref('Clock')) })),
    post: scoped(
      op(
        'setClock',
        'Moves the clock forward to `now` (firing what falls due; time never goes back), then stops it (`frozen: true`) or lets it run on (`frozen: false`).',
        { '200': ok('The clock.', ref('Clock')), ...INVALID },
        {
          requestBody: body({
            type: 'object',
            properties: { now: { type: 'string', format: 'date-time' }, frozen: { type: 'boolean' } },
            additionalProperties: false,
          }),
        },
      ),
    ),
  },
  '/_oz/clock/advance': {
    post: scoped(
      op(
        'advanceClock',
        'Moves the clock `ms` forward, firing every timer due in the window.',
        { '200': ok('The clock.', ref('Clock')), ...INVALID },
        { requestBody: body({ type: 'object', required: ['ms'], properties: { ms: { type: 'integer', minimum: 0 } }, additionalProperties: false }) },
      ),
    ),
  },
  '/_oz/idle': {
    post: scoped(
      op(
        'waitIdle',
        'Answers once no work is in flight.',
        { '200': ok('Idle.'), '504': err('timeout: work still in flight after timeout_ms.'), ...INVALID },
        {
          requestBody: body(
            { type: 'object', properties: { timeout_ms: { type: 'integer', minimum: 0, maximum: 600000, default: 10000 } }, additionalProperties: false },
            false,
          ),
        },
      ),
    ),
  },
  '/_oz/journal': {
    get: scoped(
      op(
        'getJournal',
        'The requests received, oldest first (headers with keys and tokens redacted).',
        {
          '200': ok('The entries (with format=har: a HAR 1.2 document).', {
            oneOf: [
              { type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('JournalEntry') } } },
              { type: 'object', required: ['log'], properties: { log: { type: 'object', required: ['version', 'creator', 'entries'] } } },
            ],
          }),
          ...INVALID,
        },
        {
          parameters: [
            { name: 'operationId', in: 'query', schema: { type: 'string' }, description: 'An operationId of the API (unknown: 422).' },
            { name: 'method', in: 'query', schema: { type: 'string' } },
            { name: 'path', in: 'query', schema: { type: 'string' }, description: 'An exact path.' },
            { name: 'status', in: 'query', schema: { type: 'integer' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10000 }, description: 'Only the newest N.' },
            { name: 'account', in: 'query', schema: { type: 'string' }, description: 'The account whose key sent the request.' },
            {
              name: 'header',
              in: 'query',
              schema: { type: 'string' },
              description: 'A request header and its exact value, as name:value (the name is case-insensitive).',
            },
            { name: 'body', in: 'query', schema: { type: 'string' }, description: 'A JSON object the JSON body must hold (a subset, compared deeply).' },
            {
              name: 'format',
              in: 'query',
              schema: { type: 'string', enum: ['json', 'har'] },
              description: '`har`: the picked entries as one HAR 1.2 document (`{ log: { entries } }`), keys redacted.',
            },
          ],
        },
      ),
    ),
    delete: scoped(op('clearJournal', 'Forgets every entry.', { '200': ok('Cleared.') })),
  },
  '/_oz/journal/verify': {
    post: scoped(
      op(
        'verifyJournal',
        'Asserts that `times` entries match the filter (default: at least one); 422 `verification_failed` names the count and the closest entries.',
        {
          '200': ok('As many as expected matched.', {
            type: 'object',
            required: ['ok', 'count'],
            properties: { ok: { const: true }, count: { type: 'integer' } },
          }),
          '422': err('verification_failed (with `count`, `times` and `nearMisses`), or invalid_params.'),
          '400': err('invalid_json: the body is not JSON.'),
        },
        {
          requestBody: body(
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                operationId: { type: 'string' },
                method: { type: 'string' },
                path: { type: 'string', description: 'An exact path.' },
                status: { type: 'integer' },
                account: { type: 'string' },
                header: { type: 'string', description: 'name:value' },
                body: { type: 'object', description: 'Fields the JSON body must hold (a subset).' },
                times: { type: 'integer', minimum: 0, description: 'Exactly this many (default: at least one).' },
              },
            },
            false,
          ),
        },
      ),
    ),
  },
  '/_oz/keys': {
    get: scoped(
      op(
        'listKeys',
        'The keys, oldest first, revoked ones included (never a value: its preview).',
        { '200': ok('The keys.', listOf('Key')), ...INVALID },
        { parameters: [ACCOUNT_QUERY] },
      ),
    ),
    post: scoped(
      op(
        'addKey',
        'Adds a key to an account (its value is answered this once).',
        { '201': ok('The key.', ref('CreatedKey')), ...INVALID },
        { requestBody: body(ref('KeySpec')) },
      ),
    ),
  },
  '/_oz/keys/{id}/revoke': {
    post: scoped(
      op(
        'revokeKey',
        'Revokes a key (it works for the key cache time, then answers 401).',
        { '200': ok('Revoked.'), '404': err('key_not_found: no key has this id.') },
        { parameters: [idParam('id', 'The key id (key_...).')] },
      ),
    ),
  },
  '/_oz/connections': {
    get: scoped(
      op(
        'listConnections',
        "The accounts' connections, by account then provider.",
        { '200': ok('The connections.', listOf('Connection')), ...INVALID },
        { parameters: [ACCOUNT_QUERY] },
      ),
    ),
    post: scoped(
      op(
        'linkConnection',
        "Links (or re-links) an account's connection to a provider.",
        { '201': ok('The connection.', ref('Connection')), ...INVALID },
        { requestBody: body(ref('ConnectionSpec')) },
      ),
    ),
  },
  '/_oz/connections/{account}/{provider}': {
    delete: scoped(
      op(
        'unlinkConnection',
        "Removes an account's connection (the provider's tools answer 424 connection_required again).",
        { '200': ok('Removed.'), '404': err('connection_not_found: the account has no connection to this provider.') },
        { parameters: [idParam('account', 'The account.'), idParam('provider', 'The provider.')] },
      ),
    ),
  },
  '/_oz/items/{id}/park': {
    post: scoped(
      op(
        'parkItem',
        'Parks an item.',
        { '200': ok('The item.', { type: 'object' }), '404': err('item_not_found.'), ...INVALID },
        {
          parameters: [idParam('id', 'The item id.')],
          requestBody: body({ type: 'object', required: ['reason'], properties: { reason: { type: 'string' } } }),
        },
      ),
    ),
  },
  '/_oz/items/{id}/pause': {
    post: scoped(
      op(
        'pauseItem',
        'Pauses an item.',
        { '200': ok('The item.', { type: 'object' }), '404': err('item_not_found.') },
        { parameters: [idParam('id', 'The item id.')] },
      ),
    ),
  },
  '/_oz/items/{id}/resume': {
    post: scoped(
      op(
        'resumeItem',
        'Resumes a paused item.',
        { '200': ok('The item.', { type: 'object' }), '404': err('item_not_found.') },
        { parameters: [idParam('id', 'The item id.')] },
      ),
    ),
  },
  '/_oz/items/{id}': {
    patch: scoped(
      op(
        'updateItem',
        "Changes fields of an item (what a local building's node did).",
        { '200': ok('The item.', { type: 'object' }), '404': err('item_not_found.'), ...INVALID },
        { parameters: [idParam('id', 'The item id.')], requestBody: body(ref('ItemPatch')) },
      ),
    ),
  },
  '/_oz/dashboard/sign-in-as': {
    post: op(
      'dashboardSignInAs',
      'Who signs in at the next command-line sign-in (null: the user refuses).',
      { '200': ok('Set.'), ...INVALID },
      {
        requestBody: body({
          type: 'object',
          required: ['account'],
          properties: { account: { type: ['string', 'null'] }, key_expiry_days: { enum: [7, 30, 90, 180, 365, null] }, key_name: { type: 'string' } },
        }),
      },
    ),
  },
  '/_oz/settings': {
    get: op('getSettings', 'The server settings.', { '200': ok('The settings.', ref('Settings')) }),
    patch: op(
      'updateSettings',
      'Changes settings at run time (the same as the command-line flags).',
      { '200': ok('The settings.', ref('Settings')), ...INVALID },
      { requestBody: body(ref('Settings')) },
    ),
  },
  '/_oz/sessions': {
    get: op('listSessions', 'The live sessions.', { '200': ok('The sessions.', listOf('Session')) }),
    post: op(
      'createSession',
      'A new session: an isolated world made from the baseline with new values for every key; a request with one of its keys reaches it.',
      { '201': ok('The session.', ref('Session')), '429': err('rate_limited: --max-sessions sessions are live.'), ...INVALID },
      { requestBody: body(ref('SessionSpec'), false) },
    ),
  },
  '/_oz/sessions/{session}': {
    delete: op(
      'endSession',
      'Ends a session (its keys answer 401 from then on).',
      { '200': ok('Ended.'), '404': err('session_not_found: no live session has this id.') },
      { parameters: [SESSION_PARAM] },
    ),
  },
  '/_oz/stubs': {
    get: scoped(op('listStubs', 'The armed stubs, with their hits.', { '200': ok('The stubs.', listOf('Stub')) })),
    post: scoped(
      op(
        'addStub',
        "A per-test answer for an operation, checked against openapi.json's answer for its status (422 naming the path) unless unchecked.",
        { '201': ok('The stub.', ref('Stub')), ...INVALID },
        { requestBody: body(ref('StubSpec')) },
      ),
    ),
    delete: scoped(op('clearStubs', 'Withdraws every stub.', { '200': ok('Cleared.') })),
  },
  '/_oz/stubs/{id}': {
    delete: scoped(
      op(
        'cancelStub',
        'Withdraws one stub.',
        { '200': ok('Withdrawn.'), '404': err('stub_not_found.') },
        { parameters: [idParam('id', 'The stub id (stb_...).')] },
      ),
    ),
  },
  '/_oz/unused': {
    get: scoped(op('listUnused', 'The armed faults and stubs that never fired (for an afterEach).', { '200': ok('What never fired.', ref('Unused')) })),
  },
  '/_oz/coverage': {
    get: scoped(
      op(
        'getCoverage',
        "What the run exercised of openapi.json: every operation, every response it declares (status, error code, streamed or not) with how many requests got it and what gave it, and the share covered of the operations called (the server's counts hold its sessions' too).",
        {
          '200': {
            description: 'The report, in the first form Accept names: JSON (the default), text/html (a self-contained page) or text/plain (a text table).',
            content: { ...json(ref('Coverage')), 'text/plain': { schema: { type: 'string' } }, 'text/html': { schema: { type: 'string' } } },
          },
          '422': err('invalid_params: a query parameter (the route takes none).'),
        },
      ),
    ),
  },
  '/_oz/mcp': {
    post: scoped(
      op(
        'controlMcp',
        'This control plane as an MCP server (Streamable HTTP, stateless, JSON answers): one tool per control action, each taking the fields of its route here, and server_info (the URLs and keys). Under /_oz/sessions/{session}/ its tools act on that session alone.',
        {
          '200': ok('The JSON-RPC answer.', { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' } } }),
          '202': { description: 'Accepted: notifications only.' },
          '400': { description: 'Not an MCP message (a JSON-RPC error).', content: json(ref('JsonRpcError')) },
          '406': { description: 'Accept does not list both application/json and text/event-stream (a JSON-RPC error).', content: json(ref('JsonRpcError')) },
          '415': { description: 'The body is not application/json (a JSON-RPC error).', content: json(ref('JsonRpcError')) },
        },
        {
          requestBody: body({
            description: 'A JSON-RPC 2.0 message of MCP (or a batch).',
            oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
          }),
        },
      ),
    ),
  },
  '/_oz/events': {
    get: scoped(
      op(
        'followEvents',
        'The journal live: server-sent events, `ready` once listening, then `entry` (a JournalEntry) for each request once answered. A reader that falls 64 KiB behind gets `overflow` and the end.',
        { '200': textAnswer('text/event-stream', 'The live feed.') },
      ),
    ),
  },
  '/_oz/ui': {
    get: op(
      'getConsole',
      'The web console (no token needed for the page; its script sends the admin token from the URL fragment #token=...).',
      { '200': textAnswer('text/html', 'The page.') },
      { security: [] },
    ),
  },
  '/_oz/ui/console.js': { get: op('getConsoleScript', "The console's script.", { '200': textAnswer('text/javascript', 'The script.') }, { security: [] }) },
  '/_oz/ui/console.css': { get: op('getConsoleStyle', "The console's style sheet.", { '200': textAnswer('text/css', 'The style sheet.') }, { security: [] }) },
};

/** The document. */
export const CONTROL_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'oz-mock control plane',
    version: '1.0.0',
    description:
      'Drives an embedded Oz server from outside its process: reset, baseline, fixtures, state, faults, stubs, clock, journal, keys, connections, items, dashboard, settings, sessions, and all of it as an MCP server at /_oz/mcp (every scoped route also under /_oz/sessions/{session}/, acting on that session alone). Every route but this document needs `Authorization: Bearer <admin token>` (`ozadm_` + 32 letters or digits). Errors are the Oz error envelope.',
  },
  servers: [{ url: '/' }],
  security: [{ adminToken: [] }],
  paths: { ...BASE_PATHS, ...sessionCopies(BASE_PATHS) },
  components: {
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token, ozadm_ + 32 letters or digits.' } },
    schemas: {
      Ok: { type: 'object', required: ['ok'], properties: { ok: { const: true } } },
      JsonRpcError: {
        type: 'object',
        required: ['jsonrpc', 'error'],
        properties: {
          jsonrpc: { const: '2.0' },
          id: { type: ['string', 'integer', 'null'] },
          error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
        },
      },
      ErrorEnvelope: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              param: { type: 'string' },
              problems: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
            },
          },
        },
      },
      FixtureDocument: {
        type: 'object',
        description: 'accounts, keys, companies, tools, agents, workflows, schedules, connections (every section optional). See docs/fixtures.md of oz-sdk.',
        additionalProperties: false,
        properties: Object.fromEntries(
          ['accounts', 'keys', 'companies', 'tools', 'agents', 'workflows', 'schedules', 'connections'].map((s) => [
            s,
            { type: 'array', items: { type: 'object' } },
          ]),
        ),
      },
      FixtureSummary: { type: 'object', additionalProperties: { type: 'integer' } },
      StateDocument: {
        type: 'object',
        required: ['format', 'version'],
        properties: { format: { const: 'oz-mock-state' }, version: { const: 1 }, saved_at: { type: 'string' } },
      },
      FaultSpec: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { enum: ['error', 'delay', 'drop', 'cut', 'lose', 'dribble'] },
          operationId: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string' },
          pathPattern: {
            type: 'string',
            description:
              'A regular expression (JavaScript syntax, no flags) the path must match, run in linear time: backreferences, lookarounds and \\b answer 422.',
          },
          account: { type: 'string' },
          body: { type: 'object', description: 'Fields the JSON body must have (deep-equal).' },
          times: { type: 'integer', minimum: 1 },
          status: { type: 'integer' },
          code: { type: 'string', description: "One of the API's ErrorCode (its openapi.json); another code answers 422." },
          message: { type: 'string' },
          retryAfter: { type: 'integer', minimum: 0 },
          missing: { type: 'array', items: { type: 'string' } },
          hint: { type: 'string' },
          contract: { type: 'string' },
          connect: { type: 'object', properties: { provider: { type: 'string' }, method: CONNECTION_METHOD, link: { type: 'string' } } },
          ms: { type: 'number', minimum: 0, description: 'delay: the wait; dribble: the whole time the body takes.' },
          afterEvents: { type: 'integer', minimum: 0 },
        },
      },
      Fault: {
        allOf: [
          ref('FaultSpec'),
          {
            type: 'object',
            required: ['id', 'remaining', 'hits'],
            properties: {
              id: { type: 'string' },
              remaining: { type: 'integer' },
              hits: { type: 'integer', description: 'How many requests it applied to so far.' },
            },
          },
        ],
      },
      ChaosDocument: {
        type: 'object',
        required: ['seed', 'rules'],
        additionalProperties: false,
        description:
          'Rules tried in order; the first that matches a request draws from the seeded generator, and fires its fault when the draw falls under its probability. The same seed and the same requests give the same faults.',
        properties: { seed: { type: 'integer' }, rules: { type: 'array', items: ref('ChaosRule') } },
      },
      ChaosRule: {
        type: 'object',
        required: ['probability', 'fault'],
        additionalProperties: false,
        properties: { match: ref('ChaosMatch'), probability: { type: 'number', minimum: 0, maximum: 1 }, fault: ref('ChaosFault') },
      },
      ChaosMatch: {
        type: 'object',
        additionalProperties: false,
        description: 'Which requests the rule draws for (every field given must match; none: every request).',
        properties: {
          operationId: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string', description: 'An exact path.' },
          pathPattern: { type: 'string', description: 'A regular expression (JavaScript syntax, no flags) the path must match, run in linear time.' },
          account: { type: 'string' },
          body: { type: 'object', description: 'Fields the JSON body must hold (a subset).' },
        },
      },
      ChaosFault: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { enum: ['error', 'delay', 'drop', 'cut', 'lose', 'dribble'] },
          code: {
            type: 'string',
            description: "error: one of the API's ErrorCode, or `declared` for one drawn among the retryable errors (408, 429, 5xx) the operation declares.",
          },
          status: { type: 'integer', minimum: 400, maximum: 599, description: "error: default the code's status." },
          retryAfter: { type: 'integer', minimum: 0, description: 'error: Retry-After in seconds (a 429 or 503 without it sends 1).' },
          message: { type: 'string' },
          ms: { type: 'number', minimum: 0, description: 'delay: a fixed latency; dribble: the whole time the body takes.' },
          uniform: {
            type: 'object',
            required: ['min', 'max'],
            additionalProperties: false,
            properties: { min: { type: 'number', minimum: 0 }, max: { type: 'number', minimum: 0 } },
          },
          lognormal: {
            type: 'object',
            required: ['median', 'sigma', 'max'],
            additionalProperties: false,
            properties: { median: { type: 'number', exclusiveMinimum: 0 }, sigma: { type: 'number', minimum: 0 }, max: { type: 'number', minimum: 0 } },
          },
          afterEvents: { type: 'integer', minimum: 0, description: 'cut: the events sent before the stream is cut.' },
        },
      },
      ChaosState: { type: 'object', required: ['chaos'], properties: { chaos: { oneOf: [ref('ChaosDocument'), { type: 'null' }] } } },
      StubAnswer: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'integer', minimum: 200, maximum: 599, description: 'Required, but with reply (which answers 200) or proxy (the service answers).' },
          proxy: {
            type: 'string',
            format: 'uri',
            description:
              'Alone (or with proxyApiKey): the matching request is sent on to this base URL (http: or https:, its path and query appended) and its answer comes back as it came; the journal marks it proxied. Unreachable: 502 upstream_error.',
          },
          proxyApiKey: {
            type: 'string',
            description:
              "With proxy: the key sent to the service as Authorization: Bearer (else the request's own Authorization goes on). Never listed: stub listings show it as ozk_...",
          },
          body: { description: 'The body as on the JSON wire (errors: {"error": {...}}); none for a 204.' },
          events: {
            type: 'array',
            minItems: 1,
            description:
              "Of an operation that streams, instead of body: a 200 stream's events, sent in order on the server's clock (checked against openapi.json's event schema unless unchecked); the stub answers only requests that stream. A chat stream's events are chunks (data only), then data: [DONE].",
            items: {
              type: 'object',
              required: ['data'],
              additionalProperties: false,
              properties: {
                event: { type: 'string' },
                data: { description: 'An object (sent as JSON) or a string of one line.' },
                delayMs: { type: 'number', minimum: 0, description: 'Milliseconds of the server clock before this event.' },
              },
            },
          },
          cut: {
            type: 'object',
            required: ['afterEvents'],
            additionalProperties: false,
            properties: { afterEvents: { type: 'integer', minimum: 0 } },
            description: 'With events: drop the connection after this many.',
          },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          text: {
            type: 'string',
            description:
              'Instead of body: text sent as it is, whatever wire the request negotiated (how oz-mock record replays a markdown or text answer). Needs contentType.',
          },
          contentType: { type: 'string', description: 'With text: text/markdown or text/plain, with its charset.' },
          reply: {
            type: 'object',
            additionalProperties: false,
            description:
              "Of a chat completion, instead of body or events: the assistant's content, or its tool calls (one of them), rendered by the models plane as a completion or, when the request streams, as its chunks.",
            properties: {
              content: { type: 'string' },
              toolCalls: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['name'],
                  additionalProperties: false,
                  properties: { name: { type: 'string' }, arguments: { type: 'object', description: 'Sent as a JSON text.' } },
                },
              },
            },
          },
        },
      },
      StubSpec: {
        type: 'object',
        required: ['operationId'],
        oneOf: [{ required: ['answer'] }, { required: ['answers'] }],
        additionalProperties: false,
        properties: {
          operationId: { type: 'string', description: 'An operationId of the API (unknown: 422).' },
          match: {
            type: 'object',
            additionalProperties: false,
            properties: {
              path: { type: 'object', additionalProperties: { type: 'string' }, description: 'Path parameters by name.' },
              query: { type: 'object', additionalProperties: { type: 'string' } },
              body: { type: 'object', description: 'Fields the JSON body must hold (a subset, compared deeply).' },
              account: { type: 'string', description: 'The account whose key sent the request.' },
              lastUserMessage: {
                type: 'object',
                additionalProperties: false,
                description:
                  "Of a chat completion: the last user message's text contains `contains`, or matches `pattern` (the server's linear-time pattern engine). Give one.",
                properties: { contains: { type: 'string' }, pattern: { type: 'string' } },
              },
            },
          },
          answer: ref('StubAnswer'),
          answers: {
            type: 'array',
            minItems: 1,
            items: ref('StubAnswer'),
            description: 'A sequence: the n-th matching request gets the n-th answer; then see `then`.',
          },
          then: {
            type: 'string',
            enum: ['repeat', 'fallthrough'],
            description: 'After the last of `answers`: repeat it (default), or withdraw the stub so later requests reach the server.',
          },
          times: { type: 'integer', minimum: 1, description: 'How many answers it gives; default: until reset.' },
          unchecked: { type: 'boolean', description: 'Send the answer even when openapi.json does not allow it.' },
        },
      },
      Stub: {
        type: 'object',
        required: ['id', 'operationId', 'match', 'answer', 'answers', 'position', 'then', 'times', 'remaining', 'hits', 'unchecked'],
        properties: {
          id: { type: 'string' },
          operationId: { type: 'string' },
          match: { type: 'object' },
          answer: {
            oneOf: [ref('StubAnswer'), { const: '(function)' }],
            description: 'The answer the next matching request gets (of a sequence: its answer at `position`).',
          },
          answers: { oneOf: [{ type: 'array', items: ref('StubAnswer') }, { type: 'null' }], description: 'A sequence, in order; null for a single answer.' },
          position: { type: ['integer', 'null'], description: "Of a sequence: the index of the next matching request's answer." },
          then: { oneOf: [{ type: 'string', enum: ['repeat', 'fallthrough'] }, { type: 'null' }] },
          times: { type: ['integer', 'null'] },
          remaining: { type: ['integer', 'null'] },
          hits: { type: 'integer', description: 'How many requests it matched so far.' },
          unchecked: { type: 'boolean' },
        },
      },
      Unused: {
        type: 'object',
        required: ['faults', 'stubs'],
        properties: {
          faults: { type: 'array', items: { allOf: [ref('Fault'), ref('NearMissed')] } },
          stubs: { type: 'array', items: { allOf: [ref('Stub'), ref('NearMissed')] } },
        },
      },
      NearMissed: {
        type: 'object',
        required: ['nearMisses'],
        properties: {
          nearMisses: {
            type: 'array',
            maxItems: 3,
            items: ref('NearMiss'),
            description: 'The journal entries closest to it (same operation, else path), closest first.',
          },
        },
      },
      NearMiss: {
        type: 'object',
        required: ['requestId', 'operationId', 'method', 'path', 'query', 'status', 'at', 'differences'],
        properties: {
          requestId: { type: 'string' },
          operationId: { type: ['string', 'null'] },
          method: { type: 'string' },
          path: { type: 'string' },
          query: { type: 'string' },
          status: { type: ['integer', 'null'] },
          at: { type: 'integer' },
          differences: {
            type: 'array',
            items: {
              type: 'object',
              required: ['path', 'expected'],
              properties: {
                path: { type: 'string', description: 'path.id, query.x, body.a.b, account, method, path, status, header.name' },
                expected: {},
                actual: {},
              },
            },
          },
        },
      },
      SessionSpec: {
        type: 'object',
        additionalProperties: false,
        properties: {
          fixtures: {
            oneOf: [ref('FixtureDocument'), { type: 'array', items: ref('FixtureDocument') }],
            description: "Added to the session's copy of the baseline; part of its own baseline.",
          },
          clock: {
            type: 'object',
            additionalProperties: false,
            properties: { start: { type: 'string', format: 'date-time' }, frozen: { type: 'boolean' } },
            description: "Default: the server clock's time, frozen when the server's is.",
          },
        },
      },
      Session: {
        type: 'object',
        required: ['id', 'api_key', 'keys'],
        properties: {
          id: { type: 'string', description: 'ses_...' },
          api_key: { type: ['string', 'null'], description: "The session's copy of the demo platform key (null when the baseline has none)." },
          keys: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'account', 'name', 'kind', 'api_key', 'value'],
              properties: {
                id: { type: 'string' },
                account: { type: 'string' },
                name: { type: 'string' },
                kind: KEY_KIND,
                api_key: { type: 'string', description: "The key's value." },
                value: { type: 'string', deprecated: true, description: 'The old name of api_key.' },
              },
            },
          },
        },
      },
      Coverage: COVERAGE_SCHEMA,
      Clock: {
        type: 'object',
        required: ['now', 'frozen'],
        properties: { now: { type: 'string', format: 'date-time' }, now_ms: { type: 'integer' }, frozen: { type: 'boolean' } },
      },
      JournalEntry: {
        type: 'object',
        required: [
          'requestId',
          'operationId',
          'method',
          'path',
          'headers',
          'body',
          'bodyLength',
          'bodyTruncated',
          'status',
          'executionId',
          'fault',
          'replayed',
          'at',
          'time',
        ],
        properties: {
          requestId: { type: 'string' },
          operationId: { type: ['string', 'null'] },
          mount: { enum: ['fetch', 'http', 'msw'] },
          surface: { enum: ['api', 'mcp'] },
          method: { type: 'string' },
          path: { type: 'string' },
          query: { type: 'string' },
          headers: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'By lower-case name; key and token values cut to their prefix and four characters.',
          },
          body: { type: ['string', 'null'], description: 'The body as sent, at most its first 64 KiB (see bodyTruncated); null when none was read.' },
          bodyLength: { type: ['integer', 'null'], description: "The whole body's length in bytes; null when none was read." },
          bodyTruncated: { type: 'boolean', description: 'Whether body holds only the first 64 KiB of a longer body.' },
          account: { type: ['string', 'null'], description: 'The account whose key sent the request.' },
          status: { type: ['integer', 'null'] },
          executionId: { type: ['string', 'null'] },
          fault: { type: ['string', 'null'] },
          chaos: {
            oneOf: [
              {
                type: 'object',
                required: ['rule', 'draw'],
                properties: {
                  rule: { type: 'integer', description: 'The index of the rule in rules.' },
                  draw: { type: 'number', description: "The draw, under the rule's probability." },
                },
              },
              { type: 'null' },
            ],
            description: 'The chaos rule whose draw put the fault on the request; null when none fired.',
          },
          replayed: { type: 'boolean', description: 'The answer replayed a kept answer (x-idempotent-replayed: true).' },
          proxied: {
            type: ['string', 'null'],
            description: 'A proxy stub sent the request on to this URL (origin and path, never a key); null when the server answered it.',
          },
          answeredBy: {
            enum: ['handler', 'stub', 'fault', 'chaos', null],
            description: 'What gave the answer, as the coverage counts it; null while under way or when dropped.',
          },
          at: { type: 'integer' },
          time: { type: 'string', format: 'date-time' },
        },
      },
      KeySpec: {
        type: 'object',
        required: ['account'],
        properties: {
          account: { type: 'string' },
          kind: KEY_KIND,
          name: { type: 'string' },
          api_key: { type: 'string', description: 'A fixed value for the key (default: a new one).' },
          value: { type: 'string', deprecated: true, description: 'The old name of api_key.' },
          expires_in_days: { enum: [7, 30, 90, 180, 365, null] },
          tools: { type: 'array', items: { type: 'string' } },
          addresses: { type: 'array', items: { type: 'string' } },
        },
      },
      Key: {
        type: 'object',
        required: ['id', 'account', 'kind', 'name', 'preview', 'created_at', 'expires_at', 'revoked_at'],
        properties: {
          id: { type: 'string' },
          account: { type: 'string' },
          kind: KEY_KIND,
          name: { type: 'string' },
          preview: { type: 'string', description: "The kind's prefix and the value's last four characters." },
          created_at: { type: 'string', format: 'date-time' },
          expires_at: { type: ['string', 'null'], format: 'date-time' },
          revoked_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      Connection: {
        type: 'object',
        required: ['account', 'provider', 'method', 'status'],
        properties: { account: { type: 'string' }, provider: { type: 'string' }, method: CONNECTION_METHOD, status: CONNECTION_STATUS },
      },
      ConnectionSpec: {
        type: 'object',
        required: ['account', 'provider'],
        additionalProperties: false,
        properties: {
          account: { type: 'string' },
          provider: { type: 'string' },
          method: { ...CONNECTION_METHOD, default: 'oauth' },
          status: { ...CONNECTION_STATUS, default: 'linked' },
        },
      },
      CreatedKey: {
        type: 'object',
        required: ['id', 'api_key', 'key', 'name', 'account', 'tier', 'expires_at'],
        properties: {
          id: { type: 'string' },
          api_key: { type: 'string', description: "The key's value, answered this once." },
          key: { type: 'string', deprecated: true, description: 'The old name of api_key.' },
          name: { type: 'string' },
          account: { type: 'string' },
          tier: { type: 'string' },
          expires_at: { type: ['string', 'null'] },
        },
      },
      ItemPatch: {
        type: 'object',
        additionalProperties: false,
        properties: {
          step: { type: 'string' },
          status: { type: 'string' },
          attempt: { type: 'integer' },
          priority: { type: 'integer' },
          parked_reason: { type: ['string', 'null'] },
          paused: { enum: [0, 1] },
          steer: { type: ['string', 'null'] },
          last_output: { type: ['string', 'null'] },
        },
      },
      Settings: {
        type: 'object',
        additionalProperties: false,
        properties: {
          rate_limit: { type: 'integer', minimum: 0, description: 'Requests per minute per key; 0 turns the limit off.' },
          step_ms: { type: 'integer', minimum: 0 },
          token_ms: { type: 'integer', minimum: 0 },
          poll_ms: { type: 'integer', minimum: 0 },
          key_cache_ms: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
} as const;
