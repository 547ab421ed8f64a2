/**
 * One non-streamed call over loopback HTTP to the embedded server (in its own process), through the SDK and
 * through its anchors, measured side by side in the same rounds: a raw `fetch` of the same request (the same
 * method, URL and body, and every header the SDK sends: auth, `accept`, `content-type`, `user-agent`, a fresh
 * `x-trace-id` and `x-oz-retry-count: 0`; the body read and parsed as JSON), a bare openapi-fetch client over the
 * generated `paths`, and, for chat completions, the official `openai` client (openapi-fetch and openai send a fresh
 * `x-trace-id` too, so the server's replay store does the same work for every contender). Every client uses Node's global
 * `fetch` (undici) and its keep-alive pool. The raw fetch hands fetch no signal; the SDK hands every attempt its
 * own (its timeout and the caller's abort, the same for every fetch: see `AttemptSignal`), a cost counted in the
 * SDK's own work. Both hand fetch the headers as a plain object of lower-case names (see `HeaderRecord`).
 */
import OpenAI from 'openai';
import createClient from 'openapi-fetch';
import type { paths } from '../../src/generated/openapi.js';
import { compareLatency, medianRatio, quartiles, roundRatios, type Contender } from '../latencyComparison.js';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatMs, formatRatio, formatSpread, judged, type FigureRow } from '../figureRow.js';

const CHAT_BODY = { model: 'oz-chat', messages: [{ role: 'user' as const, content: 'Say hello to the benchmark.' }] };

async function rawJson(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method} ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The headers of the raw fetch, but its `x-trace-id`: every header the SDK sends on a first attempt of a JSON write. */
export function rawFetchHeaders(apiKey: string, sdkVersion: string, apiVersion: string): Record<string, string> {
  return {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': `oz-sdk/${sdkVersion} (API ${apiVersion}; node/${process.versions.node})`,
    'x-oz-retry-count': '0',
  };
}

function ensure<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} answered no data`);
  return value;
}

export async function loopbackCallRows(ctx: FigureContext): Promise<FigureRow[]> {
  const { url, apiKey } = ctx.oz;
  const { API_VERSION, Oz, SDK_VERSION } = ctx.modules.sdk;
  const oz = new Oz({ baseURL: url, apiKey });
  const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey });
  const bare = createClient<paths>({ baseUrl: url, headers: { authorization: `Bearer ${apiKey}` } });
  // The raw fetch sends what the SDK sends (see `Transport`): the same headers, the attempt's `x-oz-retry-count`
  // among them, and on every write a fresh `x-trace-id` (made here from a counter, the cheapest unique id), so the
  // server does the same work for both (an item created with a trace id is kept for replay: about a tenth of the
  // call on this machine). test/bench/loopbackHeaders.test.ts holds these headers to the SDK's.
  const jsonHeaders = rawFetchHeaders(apiKey, SDK_VERSION, API_VERSION);
  let traces = 0;
  const traceId = () => `exe_bench${process.pid}x${++traces}`;
  const traced = () => ({ ...jsonHeaders, 'x-trace-id': traceId() });
  // openapi-fetch and openai too: a user who wants a write retried safely sends the key, and the server's replay
  // store then does for it what it does for the SDK (without one, their rows compared the SDK plus that server work
  // to a call without it).
  const keyed = () => ({ 'x-trace-id': traceId() });

  const toolBody = { text: 'hello' };
  ctx.log('loopback: tools.execute (SDK, raw fetch, openapi-fetch)');
  const tools = await compareLatency(ctx.mode, [
    { name: 'sdk', fn: () => oz.tools.execute('echo', toolBody) },
    { name: 'fetch', fn: () => rawJson(`${url}/v1/tools/echo/execute`, { method: 'POST', headers: traced(), body: JSON.stringify(toolBody) }) },
    {
      name: 'openapi-fetch',
      fn: async () =>
        ensure((await bare.POST('/v1/tools/{tool}/execute', { params: { path: { tool: 'echo' } }, body: toolBody, headers: keyed() })).data, 'openapi-fetch'),
    },
  ] satisfies Contender[]);

  const itemBody = { building: 'hq', title: 'Benchmark item' };
  ctx.log('loopback: companies.items.create (SDK, raw fetch, openapi-fetch)');
  const items = await compareLatency(ctx.mode, [
    { name: 'sdk', fn: () => oz.companies.items.create('acme', itemBody) },
    { name: 'fetch', fn: () => rawJson(`${url}/v1/companies/acme/items`, { method: 'POST', headers: traced(), body: JSON.stringify(itemBody) }) },
    {
      name: 'openapi-fetch',
      fn: async () =>
        ensure(
          (await bare.POST('/v1/companies/{campus}/items', { params: { path: { campus: 'acme' } }, body: itemBody, headers: keyed() })).data,
          'openapi-fetch',
        ),
    },
  ] satisfies Contender[]);

  ctx.log('loopback: chat.completions.create (SDK, openai, raw fetch)');
  const chat = await compareLatency(ctx.mode, [
    { name: 'sdk', fn: () => oz.chat.completions.create(CHAT_BODY) },
    { name: 'openai', fn: () => openai.chat.completions.create(CHAT_BODY, { headers: keyed() }) },
    { name: 'fetch', fn: () => rawJson(`${url}/v1/chat/completions`, { method: 'POST', headers: traced(), body: JSON.stringify(CHAT_BODY) }) },
  ] satisfies Contender[]);

  const smoke = ctx.mode.smoke;
  const ms = (c: typeof tools, name: string) => c.medianMs.get(name)!;
  const row = (name: string, c: typeof tools, anchor: string, anchorLabel: string, limit: number, note: string): FigureRow => {
    const ratio = medianRatio(c, 'sdk', anchor);
    return {
      name,
      ours: formatMs(ms(c, 'sdk')),
      anchor: `${anchorLabel} ${formatMs(ms(c, anchor))}`,
      result: formatSpread(ratio, quartiles(roundRatios(c, 'sdk', anchor))),
      target: `<= ${limit.toFixed(2)}`,
      met: judged(smoke, ratio <= limit),
      how: note,
    };
  };
  const rounds = (comparison: typeof tools) =>
    `${ctx.mode.rounds} rounds, median of per-round ratios (at least ${Math.min(...comparison.samples.values())} samples per contender)`;
  return [
    row(FIGURE_NAMES.toolsVsFetch, tools, 'fetch', 'raw fetch', 1.1, `POST /v1/tools/echo/execute over 127.0.0.1; ${rounds(tools)}`),
    row(FIGURE_NAMES.itemsVsFetch, items, 'fetch', 'raw fetch', 1.1, `POST /v1/companies/acme/items (building hq); ${rounds(items)}`),
    {
      ...row(FIGURE_NAMES.chatVsOpenAI, chat, 'openai', 'openai', 0.85, `POST /v1/chat/completions, oz-chat, not streamed; ${rounds(chat)}`),
      anchor: `openai ${formatMs(ms(chat, 'openai'))} (raw fetch ${formatMs(ms(chat, 'fetch'))}; ours/fetch ${formatRatio(medianRatio(chat, 'sdk', 'fetch'))})`,
    },
    row(FIGURE_NAMES.toolsVsOpenapiFetch, tools, 'openapi-fetch', 'openapi-fetch', 1.0, `same run as the tools.execute row; ${rounds(tools)}`),
    row(FIGURE_NAMES.itemsVsOpenapiFetch, items, 'openapi-fetch', 'openapi-fetch', 1.0, `same run as the items.create row; ${rounds(items)}`),
  ];
}
