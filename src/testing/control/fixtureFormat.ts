import type { ConnectInfo, ExecutionKind, WorkflowTask } from '../../generated/types.js';
import { isTimeZone, parseCron } from '../cron.js';
import { invalidJson, OzMockError } from '../errors.js';
import { isPlainObject, ownValue } from '../plainObject.js';
import { parseYaml } from '../yamlWire.js';

/** An error the declarative behaviour answers: the envelope's `status`, `code`, `message` and any other field. */
export interface FixtureError {
  readonly status: number;
  readonly code: string;
  /** A template: `{{field}}` is the input's field. Default: `"<code>"`. */
  readonly message?: string;
  readonly missing?: readonly string[];
  readonly hint?: string;
  readonly contract?: string;
  readonly connect?: ConnectInfo;
  /** `Retry-After` in seconds. */
  readonly retry_after?: number;
  /** Any further envelope field. */
  readonly [field: string]: unknown;
}

/** What a declared tool or agent does with an input: answer, stream, fail, wait. */
export interface FixtureBehaviour {
  /** The answer's text: a template where `{{field}}` (or `{{a.b}}`) is the input's field. */
  readonly answer?: string;
  /** The deltas a stream sends (their concatenation is the answer when `answer` is absent). */
  readonly tokens?: readonly string[];
  /** Fail the run with this error envelope. */
  readonly error?: FixtureError;
  /** Wait this long (ms of the server clock) before answering. */
  readonly delay_ms?: number;
}

/** One case of a declared behaviour: when every field of `when` equals the input's, its behaviour applies. */
export interface FixtureCase extends FixtureBehaviour {
  readonly when: Readonly<Record<string, unknown>>;
}

/** A declared tool or agent. */
export interface FixtureCallable extends FixtureBehaviour {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the input (`properties` with a `type` are checked). */
  readonly input_schema?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  /** The first case that matches wins; none matching falls back to the top-level behaviour. */
  readonly cases?: readonly FixtureCase[];
}

/** A declared tool. */
export interface FixtureTool extends FixtureCallable {
  /** The account connection it needs (424 `connection_required` until linked). */
  readonly needs_connection?: string;
}

/** A declared agent. */
export interface FixtureAgent extends FixtureCallable {
  /** Whether `stream: true` answers token events. Default `true`. */
  readonly streaming?: boolean;
}

/** The fixture document: JSON or YAML, every section optional. See the README, "Fixture files". */
export interface FixtureDocument {
  readonly accounts?: ReadonlyArray<{ readonly name: string; readonly tier?: string; readonly wallet_usd?: number; readonly rate_limit?: number }>;
  readonly keys?: ReadonlyArray<{
    readonly account: string;
    readonly name?: string;
    /** A fixed value (`ozk_` + 32 of [A-Za-z0-9], or `sk-mdl-...`, `sk-prx-...`). Default: random. */
    readonly value?: string;
    readonly kind?: 'platform' | 'models' | 'proxy';
    readonly expires_in_days?: 7 | 30 | 90 | 180 | 365 | null;
    readonly tools?: readonly string[];
    readonly addresses?: readonly string[];
  }>;
  readonly companies?: ReadonlyArray<{
    readonly account: string;
    readonly slug: string;
    readonly buildings?: ReadonlyArray<{ readonly slug: string; readonly kind: 'cloud' | 'local'; readonly pipeline?: readonly string[] }>;
  }>;
  readonly tools?: readonly FixtureTool[];
  readonly agents?: readonly FixtureAgent[];
  readonly workflows?: ReadonlyArray<{ readonly account: string; readonly name: string; readonly description?: string; readonly tasks: readonly WorkflowTask[] }>;
  readonly schedules?: ReadonlyArray<{
    readonly account: string;
    readonly name: string;
    readonly cron: string;
    readonly timezone?: string;
    readonly target: { readonly kind: ExecutionKind; readonly name: string };
    readonly input?: Readonly<Record<string, unknown>>;
    readonly enabled?: boolean;
  }>;
  readonly connections?: ReadonlyArray<{ readonly account: string; readonly provider: string; readonly method?: ConnectInfo['method']; readonly status?: 'pending' | 'linked' }>;
}

/** What already exists where a document is added (so references and duplicates are checked before writing). */
export interface FixtureWorld {
  hasAccount(name: string): boolean;
  hasCompany(account: string, slug: string): boolean;
  hasKeyValue(value: string): boolean;
  hasTool(name: string): boolean;
  hasAgent(name: string): boolean;
  hasWorkflow(account: string, name: string): boolean;
}

/** One problem of a document: the path of the field (`tools[2].answer`) and what is wrong with it. */
export interface FixtureProblem {
  readonly path: string;
  readonly message: string;
}

const SECTIONS = ['accounts', 'keys', 'companies', 'tools', 'agents', 'workflows', 'schedules', 'connections'] as const;
const KEY_SHAPES: Readonly<Record<string, RegExp>> = { platform: /^ozk_[A-Za-z0-9]{32}$/, models: /^sk-mdl-[A-Za-z0-9]{8,}$/, proxy: /^sk-prx-[A-Za-z0-9]{8,}$/ };
const EXPIRY_DAYS: ReadonlySet<unknown> = new Set([7, 30, 90, 180, 365, null]);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** What is wrong with a fixed key value of a kind, or `null` when it has the kind's shape. */
export function keyValueProblem(kind: string, value: string): string | null {
  const shape = ownValue(KEY_SHAPES, kind) ?? KEY_SHAPES.platform!;
  if (shape.test(value)) return null;
  return kind === 'models' || kind === 'proxy' ? `must be a ${kind} key (${kind === 'models' ? 'sk-mdl-' : 'sk-prx-'} then at least 8 letters or digits)` : 'must be ozk_ followed by 32 letters or digits';
}

/** Collects problems with the path of each field. */
class Checker {
  readonly problems: FixtureProblem[] = [];

  fail(path: string, message: string): false {
    this.problems.push({ path, message });
    return false;
  }

  object(v: unknown, path: string): v is Record<string, unknown> {
    return isPlainObject(v) || this.fail(path, 'must be an object');
  }

  /** Only the known fields; each problem named by its path. */
  fields(o: Record<string, unknown>, path: string, known: readonly string[], required: readonly string[]): void {
    for (const k of Object.keys(o)) if (!known.includes(k)) this.fail(`${path}.${k}`, `is not a field here (known: ${known.join(', ')})`);
    for (const k of required) if (o[k] === undefined || o[k] === null) this.fail(`${path}.${k}`, 'is required');
  }

  string(o: Record<string, unknown>, k: string, path: string, pattern?: RegExp, what?: string): boolean {
    const v = o[k];
    if (v === undefined) return true;
    if (typeof v !== 'string') return this.fail(`${path}.${k}`, 'must be a string');
    if (pattern && !pattern.test(v)) return this.fail(`${path}.${k}`, `must be ${what ?? `like ${pattern.source}`}`);
    return true;
  }

  number(o: Record<string, unknown>, k: string, path: string, min: number, max: number, integer = false): boolean {
    const v = o[k];
    if (v === undefined) return true;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      return this.fail(`${path}.${k}`, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    }
    return true;
  }

  boolean(o: Record<string, unknown>, k: string, path: string): boolean {
    return o[k] === undefined || typeof o[k] === 'boolean' || this.fail(`${path}.${k}`, 'must be true or false');
  }

  strings(o: Record<string, unknown>, k: string, path: string): boolean {
    const v = o[k];
    if (v === undefined) return true;
    if (!Array.isArray(v)) return this.fail(`${path}.${k}`, 'must be a list of strings');
    let ok = true;
    v.forEach((s, i) => (ok = (typeof s === 'string' || this.fail(`${path}.${k}[${i}]`, 'must be a string')) && ok));
    return ok;
  }

  oneOf(o: Record<string, unknown>, k: string, path: string, values: readonly unknown[]): boolean {
    return o[k] === undefined || values.includes(o[k]) || this.fail(`${path}.${k}`, `must be one of: ${values.map(String).join(', ')}`);
  }

  list(doc: Record<string, unknown>, section: string): Array<[Record<string, unknown>, string]> {
    const v = doc[section];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.fail(section, 'must be a list');
      return [];
    }
    const out: Array<[Record<string, unknown>, string]> = [];
    v.forEach((item, i) => {
      if (this.object(item, `${section}[${i}]`)) out.push([item, `${section}[${i}]`]);
    });
    return out;
  }
}

const BEHAVIOUR_FIELDS = ['answer', 'tokens', 'error', 'delay_ms'] as const;

function checkBehaviour(c: Checker, o: Record<string, unknown>, path: string): void {
  c.string(o, 'answer', path);
  c.strings(o, 'tokens', path);
  c.number(o, 'delay_ms', path, 0, 86_400_000, true);
  if (o.error !== undefined && c.object(o.error, `${path}.error`)) {
    const e = o.error;
    const p = `${path}.error`;
    for (const k of ['status', 'code']) if (e[k] === undefined) c.fail(`${p}.${k}`, 'is required');
    c.number(e, 'status', p, 400, 599, true);
    c.string(e, 'code', p, /^[a-z][a-z0-9_]*$/, 'a snake_case code');
    c.string(e, 'message', p);
    c.string(e, 'hint', p);
    c.string(e, 'contract', p);
    c.strings(e, 'missing', p);
    c.number(e, 'retry_after', p, 0, 86_400, true);
    if (e.connect !== undefined && c.object(e.connect, `${p}.connect`)) {
      c.fields(e.connect, `${p}.connect`, ['provider', 'method', 'link'], ['provider', 'method', 'link']);
      c.string(e.connect, 'provider', `${p}.connect`);
      c.oneOf(e.connect, 'method', `${p}.connect`, ['oauth', 'api_key', 'wallet']);
      c.string(e.connect, 'link', `${p}.connect`);
    }
  }
}

function checkCallable(c: Checker, o: Record<string, unknown>, path: string, kind: 'tool' | 'agent'): void {
  const own = kind === 'tool' ? ['needs_connection'] : ['streaming'];
  c.fields(o, path, ['name', 'description', 'input_schema', 'required', 'cases', ...BEHAVIOUR_FIELDS, ...own], ['name']);
  c.string(o, 'name', path, NAME, 'a name of letters, digits, _ . - (at most 100)');
  c.string(o, 'description', path);
  if (o.input_schema !== undefined) c.object(o.input_schema, `${path}.input_schema`);
  c.strings(o, 'required', path);
  if (kind === 'tool') c.string(o, 'needs_connection', path, NAME, 'a provider name');
  else c.boolean(o, 'streaming', path);
  checkBehaviour(c, o, path);
  const cases = o.cases;
  if (cases !== undefined) {
    if (!Array.isArray(cases)) c.fail(`${path}.cases`, 'must be a list');
    else
      cases.forEach((k, i) => {
        const p = `${path}.cases[${i}]`;
        if (!c.object(k, p)) return;
        c.fields(k, p, ['when', ...BEHAVIOUR_FIELDS], ['when']);
        if (k.when !== undefined) c.object(k.when, `${p}.when`);
        checkBehaviour(c, k, p);
        if (!BEHAVIOUR_FIELDS.some((f) => f !== 'delay_ms' && k[f] !== undefined)) c.fail(p, 'needs answer, tokens or error');
      });
  }
  if (!['answer', 'tokens', 'error', 'cases'].some((f) => o[f] !== undefined)) c.fail(path, 'needs answer, tokens, error or cases');
}

/**
 * Checks a whole fixture document against the format and against what exists already (`world`): every
 * problem, each with the path of its field. An empty list means the document can be added as a whole.
 */
export function checkFixtureDocument(doc: unknown, world: FixtureWorld): FixtureProblem[] {
  const c = new Checker();
  if (!isPlainObject(doc)) {
    c.fail('(document)', 'must be an object with any of the sections: ' + SECTIONS.join(', '));
    return c.problems;
  }
  for (const k of Object.keys(doc)) if (!(SECTIONS as readonly string[]).includes(k)) c.fail(k, `is not a section (known: ${SECTIONS.join(', ')})`);

  const accounts = new Set<string>();
  const hasAccount = (name: unknown) => typeof name === 'string' && (accounts.has(name) || world.hasAccount(name));
  const refAccount = (o: Record<string, unknown>, path: string) => {
    if (typeof o.account === 'string' && !hasAccount(o.account)) c.fail(`${path}.account`, `names no account: ${o.account}`);
  };
  for (const [o, p] of c.list(doc, 'accounts')) {
    c.fields(o, p, ['name', 'tier', 'wallet_usd', 'rate_limit'], ['name']);
    if (c.string(o, 'name', p, NAME, 'a name of letters, digits, _ . - (at most 100)') && typeof o.name === 'string') {
      if (accounts.has(o.name) || world.hasAccount(o.name)) c.fail(`${p}.name`, `account ${o.name} exists already`);
      accounts.add(o.name);
    }
    c.string(o, 'tier', p, /^[a-z][a-z0-9_-]{0,30}$/, 'a tier such as free or pro');
    c.number(o, 'wallet_usd', p, 0, 1e9);
    c.number(o, 'rate_limit', p, 0, 1e9, true);
  }
  const values = new Set<string>();
  for (const [o, p] of c.list(doc, 'keys')) {
    c.fields(o, p, ['account', 'name', 'value', 'kind', 'expires_in_days', 'tools', 'addresses'], ['account']);
    c.string(o, 'account', p);
    refAccount(o, p);
    c.string(o, 'name', p);
    c.oneOf(o, 'kind', p, ['platform', 'models', 'proxy']);
    const kind = typeof o.kind === 'string' && ownValue(KEY_SHAPES, o.kind) ? o.kind : 'platform';
    if (c.string(o, 'value', p) && typeof o.value === 'string') {
      const shape = keyValueProblem(kind, o.value);
      if (shape) c.fail(`${p}.value`, shape);
      else if (values.has(o.value) || world.hasKeyValue(o.value)) c.fail(`${p}.value`, 'is in use already');
      values.add(o.value);
    }
    if (!EXPIRY_DAYS.has(o.expires_in_days ?? null)) c.fail(`${p}.expires_in_days`, 'must be one of 7, 30, 90, 180, 365 or null');
    c.strings(o, 'tools', p);
    c.strings(o, 'addresses', p);
  }
  const companies = new Set<string>();
  for (const [o, p] of c.list(doc, 'companies')) {
    c.fields(o, p, ['account', 'slug', 'buildings'], ['account', 'slug']);
    c.string(o, 'account', p);
    refAccount(o, p);
    if (c.string(o, 'slug', p, NAME, 'a slug of letters, digits, _ . -') && typeof o.slug === 'string' && typeof o.account === 'string') {
      const id = `${o.account}/${o.slug}`;
      if (companies.has(id) || world.hasCompany(o.account, o.slug)) c.fail(`${p}.slug`, `company ${o.slug} exists already in account ${o.account}`);
      companies.add(id);
    }
    for (const [b, bp] of c.list(o, 'buildings').map(([b, bp]) => [b, `${p}.${bp}`] as const)) {
      c.fields(b, bp, ['slug', 'kind', 'pipeline'], ['slug', 'kind']);
      c.string(b, 'slug', bp, NAME, 'a slug of letters, digits, _ . -');
      c.oneOf(b, 'kind', bp, ['cloud', 'local']);
      c.strings(b, 'pipeline', bp);
      if (b.kind === 'cloud' && (!Array.isArray(b.pipeline) || b.pipeline.length === 0)) c.fail(`${bp}.pipeline`, 'a cloud building needs at least one step');
    }
  }
  const agents = new Set<string>();
  const tools = new Set<string>();
  for (const [o, p] of c.list(doc, 'tools')) {
    checkCallable(c, o, p, 'tool');
    if (typeof o.name === 'string') tools.add(o.name);
  }
  for (const [o, p] of c.list(doc, 'agents')) {
    checkCallable(c, o, p, 'agent');
    if (typeof o.name === 'string') agents.add(o.name);
  }
  const workflows = new Set<string>();
  for (const [o, p] of c.list(doc, 'workflows')) {
    c.fields(o, p, ['account', 'name', 'description', 'tasks'], ['account', 'name', 'tasks']);
    c.string(o, 'account', p);
    refAccount(o, p);
    c.string(o, 'description', p);
    if (c.string(o, 'name', p, NAME, 'a name of letters, digits, _ . -') && typeof o.name === 'string' && typeof o.account === 'string') {
      const id = `${o.account}/${o.name}`;
      if (workflows.has(id) || world.hasWorkflow(o.account, o.name)) c.fail(`${p}.name`, `workflow ${o.name} exists already in account ${o.account}`);
      workflows.add(id);
    }
    if (o.tasks !== undefined && (!Array.isArray(o.tasks) || o.tasks.length === 0)) c.fail(`${p}.tasks`, 'must be a list of at least one task');
    for (const [t, tp] of c.list(o, 'tasks').map(([t, tp]) => [t, `${p}.${tp}`] as const)) {
      if (t.id === undefined || t.agent === undefined) c.fail(tp, 'needs id and agent');
      c.string(t, 'id', tp);
      c.oneOf(t, 'type', tp, ['task']);
      if (c.string(t, 'agent', tp) && typeof t.agent === 'string' && !agents.has(t.agent) && !world.hasAgent(t.agent)) c.fail(`${tp}.agent`, `names no agent: ${t.agent}`);
    }
  }
  for (const [o, p] of c.list(doc, 'schedules')) {
    c.fields(o, p, ['account', 'name', 'cron', 'timezone', 'target', 'input', 'enabled'], ['account', 'name', 'cron', 'target']);
    c.string(o, 'account', p);
    refAccount(o, p);
    c.string(o, 'name', p);
    if (c.string(o, 'cron', p) && typeof o.cron === 'string' && !parseCron(o.cron)) c.fail(`${p}.cron`, 'must be a five-field cron expression');
    if (c.string(o, 'timezone', p) && typeof o.timezone === 'string' && !isTimeZone(o.timezone)) c.fail(`${p}.timezone`, 'must be an IANA time zone');
    if (o.input !== undefined) c.object(o.input, `${p}.input`);
    c.boolean(o, 'enabled', p);
    if (o.target !== undefined && c.object(o.target, `${p}.target`)) {
      const t = o.target;
      c.fields(t, `${p}.target`, ['kind', 'name'], ['kind', 'name']);
      c.oneOf(t, 'kind', `${p}.target`, ['tool', 'agent', 'workflow']);
      if (c.string(t, 'name', `${p}.target`) && typeof t.name === 'string') {
        const found =
          t.kind === 'tool' ? tools.has(t.name) || world.hasTool(t.name)
          : t.kind === 'agent' ? agents.has(t.name) || world.hasAgent(t.name)
          : typeof o.account === 'string' && (workflows.has(`${o.account}/${t.name}`) || world.hasWorkflow(o.account, t.name));
        if (!found) c.fail(`${p}.target.name`, `names no ${String(t.kind)}: ${t.name}`);
      }
    }
  }
  for (const [o, p] of c.list(doc, 'connections')) {
    c.fields(o, p, ['account', 'provider', 'method', 'status'], ['account', 'provider']);
    c.string(o, 'account', p);
    refAccount(o, p);
    c.string(o, 'provider', p, NAME, 'a provider name');
    c.oneOf(o, 'method', p, ['oauth', 'api_key', 'wallet']);
    c.oneOf(o, 'status', p, ['pending', 'linked']);
  }
  return c.problems;
}

/** 422 `invalid_params` naming the first bad field's path (every problem in `problems`). */
export function fixtureError(problems: readonly FixtureProblem[], source?: string): OzMockError {
  const first = problems[0]!;
  const where = source ? `${source}: ` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new OzMockError(422, 'invalid_params', `${where}${first.path} ${first.message}${more}. Nothing of the document was added.`, {
    extra: { param: first.path, problems: problems.map((p) => ({ ...p })) },
  });
}

/** Parses a fixture document's text: JSON, else YAML (with the JSON schema: dates stay strings). */
export function parseFixtureText(text: string): unknown {
  const trimmed = text.trimStart();
  try {
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return JSON.parse(text) as unknown;
    return parseYaml(text, 'allow');
  } catch (err) {
    throw invalidJson('JSON or YAML', (err as Error).message.split('\n')[0] ?? 'unreadable', 'The fixture document');
  }
}
