import type { CliCommand, CliFlag } from '../generated/cli.js';
import type { APIPromise, Format, Oz, Page, Stream } from '../index.js';
import type { WrittenFlag } from './argv.js';
import { cardFields } from './cardFields.js';
import { cliClient } from './cliClient.js';
import { unknownFlag, valueOf, type GlobalOptions } from './cliOptions.js';
import { CliUsageError } from './cliUsageError.js';
import { kebabCase, namesField } from './flagNames.js';
import { readFlagValue } from './flagType.js';
import { commandHelp } from './help.js';
import { AnswerBytes } from './answerBytes.js';
import { answerOutput, jsonText, type OutputStream } from './output.js';
import { writeOwn } from './terminalText.js';
import { unexpectedAnswer } from '../core/errors/unexpectedAnswer.js';
import { progressLine } from './progressLine.js';
import { parseData, readDataText } from './requestData.js';

/** What a command runs with: its streams, environment and the signal Ctrl+C aborts. */
export interface CliIO {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin: () => Promise<string>;
  readonly signal: AbortSignal;
}

type Method = (...args: unknown[]) => Promise<unknown>;

/** The client's method of a command (`client.companies.items.create`), bound to its resource. */
function methodOf(client: Oz, path: readonly string[]): Method {
  let owner: unknown = client;
  for (const name of path.slice(0, -1)) owner = (owner as Record<string, unknown>)[name];
  const method = (owner as Record<string, unknown> | undefined)?.[path.at(-1)!];
  if (typeof method !== 'function') throw new Error(`the client has no method ${path.join('.')}`);
  return (...args) => (method as Method).apply(owner, args);
}

/** Reads the flags that name `fields` into `into`; answers the flags left. */
function readFields(flags: readonly WrittenFlag[], fields: readonly CliFlag[], into: Record<string, unknown>): WrittenFlag[] {
  const left: WrittenFlag[] = [];
  for (const flag of flags) {
    const field = fields.find((f) => namesField(flag.name, f.name));
    if (field === undefined) left.push(flag);
    else into[field.name] = readFlagValue(field, valueOf(flag));
  }
  return left;
}

function checkRequired(fields: readonly CliFlag[], values: Record<string, unknown>, where: string): void {
  const missing = fields.filter((f) => f.required && values[f.name] === undefined);
  if (missing.length) throw new CliUsageError(`Missing ${missing.map((f) => `--${kebabCase(f.name)}`).join(', ')} (required${where}).`);
}

/** A command that reads one run's record by its id (`oz executions get ID`): with `--wait` it waits for that run. */
const readsRun = (command: CliCommand) => command.operationId === 'getExecution';

/** Checks the global flags against what the command does, before anything is sent. */
function checkGlobals(words: string, command: CliCommand, options: GlobalOptions): void {
  const format = options.format ?? 'json';
  const streams = command.streaming !== 'none';
  if (options.stream && !streams) throw new CliUsageError(`--stream: oz ${words} does not stream.`);
  if (options.async && !command.body?.async) throw new CliUsageError(`--async: oz ${words} does not start a run in the background.`);
  if (options.wait && !command.body?.async && !readsRun(command))
    throw new CliUsageError(`--wait: oz ${words} does not start a run in the background (oz executions wait ID waits for any run).`);
  if (options.waitTimeout !== undefined && !options.wait) throw new CliUsageError('--wait-timeout goes with --wait (or oz executions wait).');
  if ((options.async || options.wait) && (options.stream || command.streaming === 'always')) throw new CliUsageError('--async and --wait exclude --stream.');
  if (options.all && !command.paged) throw new CliUsageError(`--all: oz ${words} is not a list.`);
  if (options.all && format !== 'json') throw new CliUsageError('--all prints one JSON line per item: leave out --format or use --format json.');
  if (!command.wire && (format === 'markdown' || format === 'text'))
    throw new CliUsageError(`--format ${format}: oz ${words} answers json only (yaml is converted here).`);
  if (command.paged && (format === 'markdown' || format === 'text')) throw new CliUsageError(`--format ${format}: a page of a list prints as json or yaml.`);
  if (options.data !== undefined && command.body === undefined) throw new CliUsageError(`--data: oz ${words} takes no body.`);
}

/** The flags of a tool's or agent's card (`own`) read into the body: a tool's as its `params`, checked for the required. */
function readCardFlags(
  card: 'tool' | 'agent',
  flags: readonly WrittenFlag[],
  own: readonly CliFlag[],
  data: Record<string, unknown> | undefined,
  body: Record<string, unknown>,
): void {
  const values: Record<string, unknown> = {};
  const unknown = readFields(flags, own, values);
  if (unknown.length)
    throw unknownFlag(
      unknown[0]!,
      own.map((f) => kebabCase(f.name)),
    );
  if (card === 'tool') {
    const params = { ...(data?.params as Record<string, unknown> | undefined), ...values };
    checkRequired(own, { ...data, ...params }, " by the tool's card");
    body.params = params;
  } else {
    Object.assign(body, values);
  }
}

/** One event of a stream as text: a token's delta, a chat chunk's content; nothing for the other events. */
function eventText(event: unknown): string {
  const e = event as { event?: string; data?: { delta?: unknown }; choices?: { delta?: { content?: unknown } }[] };
  if (e.event === 'token' && typeof e.data?.delta === 'string') return e.data.delta;
  const content = e.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}

/** The path parameters: as many positionals as the command's path has, else a usage error naming what is missing or extra. */
function checkPositionals(words: readonly string[], command: CliCommand, positionals: readonly string[]): void {
  const usage = `oz ${[...words, ...command.pathParams.map((p) => p.name.toUpperCase())].join(' ')}`;
  if (positionals.length < command.pathParams.length) {
    throw new CliUsageError(
      `Missing ${command.pathParams
        .slice(positionals.length)
        .map((p) => p.name.toUpperCase())
        .join(' ')}: ${usage}.`,
    );
  }
  if (positionals.length > command.pathParams.length)
    throw new CliUsageError(`Unexpected argument ${JSON.stringify(positionals[command.pathParams.length])}: ${usage}.`);
}

/** The arguments of the client's method, in its order: the path parameters, the query, the body, then the call's options. */
function callArguments(
  command: CliCommand,
  positionals: readonly string[],
  query: Record<string, unknown>,
  body: Record<string, unknown> | undefined,
  options: GlobalOptions,
  signal: AbortSignal,
): unknown[] {
  const format: Format = options.format ?? 'json';
  const callOptions = {
    signal,
    ...(command.wire && format !== 'json' ? { format } : {}),
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
  };
  const args: unknown[] = [...positionals];
  if (command.query.length) args.push(query);
  if (command.body) args.push(body);
  args.push(callOptions);
  return args;
}

/** Runs a generated command: the arguments and flags checked and typed, then the client's method, then the output. */
export async function runOperation(
  words: readonly string[],
  command: CliCommand,
  positionals: readonly string[],
  flags: readonly WrittenFlag[],
  options: GlobalOptions,
  io: CliIO,
): Promise<void> {
  const named = words.join(' ');
  const cardName = command.card === 'tool' ? positionals[0] : undefined;
  if (options.help && !(command.card && (cardName || flags.some((f) => f.name === 'agent')))) {
    writeOwn(io.stdout, commandHelp(words, command));
    return;
  }
  checkPositionals(words, command, positionals);
  checkGlobals(named, command, options);

  const query: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  let left = readFields(flags, command.query, query);
  left = readFields(left, command.body?.fields ?? [], fields);
  if (left.length && !command.card)
    throw unknownFlag(
      left[0]!,
      [...command.query, ...(command.body?.fields ?? [])].map((f) => kebabCase(f.name)),
    );
  const data =
    options.data === undefined
      ? undefined
      : await parseData(await readDataText(options.data, io.readStdin), options.data.startsWith('@') || options.data === '-' ? options.data : '(inline)');

  const wireBytes = new AnswerBytes();
  const client = await cliClient(options, io.env, wireBytes.middleware);
  const body: Record<string, unknown> | undefined = command.body ? { ...data, ...fields } : undefined;
  if (command.card) {
    const name = command.card === 'tool' ? cardName : ((fields.agent ?? data?.agent) as string | undefined);
    if (options.help || left.length) {
      const own = await cardFields(client, command.card, name, io.signal);
      if (options.help) {
        writeOwn(io.stdout, commandHelp(words, command, own));
        return;
      }
      readCardFlags(command.card, left, own, data, body!);
    }
  }
  checkRequired(command.query, query, '');
  if (body !== undefined && (data !== undefined || Object.keys(fields).length || command.body?.required))
    checkRequired(command.body?.fields ?? [], body, '; or give them in --data');
  if (body && options.stream && command.body?.stream) body.stream = true;
  if (body && (options.async || options.wait)) body.async = true;

  const format: Format = options.format ?? 'json';
  const args = callArguments(command, positionals, query, body, options, io.signal);
  const call = methodOf(client, command.method);
  const pretty = io.stdout.isTTY === true;

  if (options.all) {
    for await (const item of call(...args) as unknown as AsyncIterable<unknown>) io.stdout.write(jsonText(item, false));
    return;
  }
  if (command.paged) {
    const { data: page, response } = await (call(...args) as unknown as APIPromise<Page<unknown>>).withResponse();
    io.stdout.write(await answerOutput({ data: page.data, next_cursor: page.next_cursor }, wireBytes.of(response), format, pretty));
    return;
  }
  if (command.streaming === 'always' || (options.stream && command.body?.stream)) {
    await printStream((await call(...args)) as Stream<unknown>, options.format === 'json', io.stdout);
    return;
  }
  if (!options.wait) {
    const { data: answer, response } = await (call(...args) as unknown as APIPromise<unknown>).withResponse();
    io.stdout.write(await answerOutput(answer, wireBytes.of(response), format, pretty));
    return;
  }
  const answer = readsRun(command) ? { execution_id: positionals[0]!, wait: (o: object) => client.executions.wait(positionals[0]!, o) } : await call(...args);
  await printWaited(`oz ${named} --wait`, answer, client, options, io);
}

/** A stream's events as NDJSON (`--format json`), else the text of its tokens, then a newline. */
async function printStream(stream: Stream<unknown>, asJson: boolean, stdout: OutputStream): Promise<void> {
  let wrote = false;
  for await (const event of stream) {
    if (asJson) stdout.write(jsonText(event, false));
    else {
      const text = eventText(event);
      if (text) stdout.write(text);
      wrote ||= text !== '';
    }
  }
  if (wrote) stdout.write('\n');
}

/** `--wait`: waits for the run `answer` points to (the progress line on a terminal's stderr), then prints its result. */
async function printWaited(named: string, answer: unknown, client: Oz, options: GlobalOptions, io: CliIO): Promise<void> {
  const format: Format = options.format ?? 'json';
  // The service may answer a finished run (200) rather than its pointer: its execution id is waited on the same.
  const pointer = answer as { execution_id?: unknown; wait?: (o: object) => Promise<{ content: string }> } | null;
  if (typeof pointer !== 'object' || pointer === null || typeof pointer.execution_id !== 'string') {
    throw unexpectedAnswer(named, 'a run (`execution_id`)', answer);
  }
  const waitOn = pointer.wait ?? ((o: object) => client.executions.wait(pointer.execution_id as string, o));
  const line = progressLine(io.stderr);
  try {
    const waitOptions = {
      signal: io.signal,
      onProgress: (record: { id?: string; status?: string }) => line.update(record),
      ...(options.waitTimeout === undefined ? {} : { timeout: options.waitTimeout }),
    };
    const result = await waitOn(waitOptions);
    line.done();
    io.stdout.write(await answerOutput(format === 'markdown' || format === 'text' ? result.content : result, undefined, format, io.stdout.isTTY === true));
  } finally {
    line.done();
  }
}
