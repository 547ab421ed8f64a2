import type { AgentDefinition, ToolDefinition } from './catalog.js';
import { OzMockError } from '../contract/errors.js';
import type { Store } from './store.js';

/** The keys the demo seed creates (values fixed by the server's options, or random). */
export interface DemoKeys {
  /** The `demo` account's platform key (`ozk_`). */
  readonly apiKey: string;
  /** The `demo` account's legacy models-plane key (`sk-mdl-`). */
  readonly modelsKey: string;
  /** The `demo` account's legacy connector-proxy key (`sk-prx-`). */
  readonly proxyKey: string;
  /** The `other` account's platform key (tier `free`). */
  readonly otherApiKey: string;
}

/** The demo seed's tools: `echo`, `sum`, `crm_lookup` (needs `crm`), `slow`. */
export const DEMO_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'echo',
    description: 'Answers its text back.',
    inputSchema: { properties: { text: { type: 'string', description: 'The text to answer back.' } } },
    required: ['text'],
    handler: (params) => String(params.text),
  },
  {
    name: 'sum',
    description: 'Adds two numbers.',
    inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } } },
    required: ['a', 'b'],
    handler: (params) => String((params.a as number) + (params.b as number)),
  },
  {
    name: 'crm_lookup',
    description: 'Looks a contact up in the CRM; needs the account connection crm.',
    inputSchema: { properties: { query: { type: 'string', description: 'A name or an e-mail address.' } } },
    required: ['query'],
    connection: 'crm',
    handler: (params) => `CRM contact for ${String(params.query)}: found, customer since 2024.`,
  },
  {
    name: 'slow',
    description: 'Waits ms milliseconds, then answers.',
    inputSchema: { properties: { ms: { type: 'integer', description: 'How long to wait.' } } },
    required: ['ms'],
    handler: async (params, context) => {
      await context.sleep(params.ms as number);
      return `Waited ${String(params.ms)} ms.`;
    },
  },
];

/** The demo seed's agents: `writer` and `approver`. */
export const DEMO_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'writer',
    description: 'Writes a short draft for a request.',
    handler: (input) => `Here is a draft for: ${String(input.user_request)}`,
  },
  {
    name: 'approver',
    description: 'Approves a request once a person has approved it (approved: true).',
    inputSchema: {
      properties: { user_request: { type: 'string' }, approved: { type: 'boolean', description: 'A person approved this.' } },
      required: ['user_request'],
    },
    handler: (input) => {
      if (input.approved !== true) {
        throw new OzMockError(409, 'approval_required', 'This request needs approval before it runs.', {
          hint: 'Resend it with approved: true once a person has approved it.',
        });
      }
      return `Approved: ${String(input.user_request)}`;
    },
  },
];

/** The demo account's company, its cloud building and its stored workflow (the contract's "The demo account"). */
export const DEMO_NAMES = { company: 'acme', building: 'hq', workflow: 'draft-and-review' } as const;

/** Seeds the demo account of the service's contract ("The demo account"). */
export function seedDemo(store: Store, keys: DemoKeys): void {
  for (const tool of DEMO_TOOLS) store.addTool(tool);
  for (const agent of DEMO_AGENTS) store.addAgent(agent);

  store.addAccount({ name: 'demo', tier: 'pro' });
  store.addKey({ account: 'demo', name: 'demo key', apiKey: keys.apiKey });
  store.addKey({ account: 'demo', kind: 'models', name: 'legacy models key', apiKey: keys.modelsKey });
  store.addKey({ account: 'demo', kind: 'proxy', name: 'legacy proxy key', apiKey: keys.proxyKey });
  store.addCompany({
    account: 'demo',
    slug: DEMO_NAMES.company,
    buildings: [
      { slug: DEMO_NAMES.building, kind: 'cloud', pipeline: ['plan', 'build', 'review'] },
      { slug: 'lab', kind: 'local' },
    ],
  });
  store.addWorkflow({
    account: 'demo',
    name: DEMO_NAMES.workflow,
    description: 'A writer drafts, then a writer reviews the draft.',
    tasks: [
      { id: 'draft', type: 'task', agent: 'writer' },
      { id: 'review', type: 'task', agent: 'writer', user_request: 'Review this draft: {input}' },
    ],
  });

  store.addAccount({ name: 'other', tier: 'free' });
  store.addKey({ account: 'other', name: 'other key', apiKey: keys.otherApiKey });
  store.addCompany({ account: 'other', slug: 'globex', buildings: [{ slug: 'hq', kind: 'local' }] });
}
