import { paceToken } from '../wire/streamPace.js';
import { createHash } from 'node:crypto';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  EmbeddingRequest,
  EmbeddingResponse,
  Model,
  ModelList,
} from '../../generated/types.js';
import type { RequestContext } from '../pipeline/requestContext.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { OzMockError } from '../contract/errors.js';
import { randomAlnum } from '../support/ids.js';
import { isPlainObject } from '../support/plainObject.js';
import { messageText } from '../pipeline/stubs/chatScript.js';
import { chatAsk } from './models/chatRequest.js';
import { choicePlans, planTokens } from './models/chatChoices.js';
import { chunkSteps, completionChoices, type ChunkStep } from './models/chatRender.js';

/** The models of the models plane. */
export const MODELS = [
  { id: 'oz-chat', kind: 'chat' },
  { id: 'oz-embed', kind: 'embedding' },
] as const;

/** 2026-01-01T00:00:00Z: when the mock's models were "created". */
const MODELS_CREATED = 1_767_225_600;
/** What one token costs on the models plane (micro-dollars), drawn from the account's wallet. */
export const TOKEN_MICROS = 2;
/** The default length of an embedding vector. */
export const EMBEDDING_DIMENSIONS = 16;

/** 404 `model_not_found` (OpenAI's `type: invalid_request_error` is added on the models plane). */
function modelNotFound(name: string, param: string | null): OzMockError {
  return new OzMockError(404, 'model_not_found', `The model ${name} does not exist.`, { param });
}

function findModel(name: string, param: string | null): (typeof MODELS)[number] {
  const found = MODELS.find((m) => m.id === name);
  if (!found) throw modelNotFound(name, param);
  return found;
}

/** The body's model (a string by openapi.json): it must exist and be of the route's kind. */
function model(ctx: RequestContext, kind: 'chat' | 'embedding'): string {
  const name = ctx.body.model as string;
  if (findModel(name, 'model').kind !== kind) {
    throw new OzMockError(422, 'invalid_params', `${name} is not a ${kind === 'chat' ? 'chat' : 'embedding'} model.`, { param: 'model' });
  }
  return name;
}

function modelView(m: (typeof MODELS)[number]): Model {
  return { id: m.id, object: 'model', created: MODELS_CREATED, owned_by: 'oz' };
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** `GET /v1/models` (OpenAI's shape). */
export const listModels: OperationHandler = (ctx) => {
  const list: ModelList = { object: 'list', data: MODELS.map(modelView) };
  return ctx.json(200, list);
};

/** `GET /v1/models/{model}` (OpenAI's `retrieve`): one model, or 404 `model_not_found`. */
export const getModel: OperationHandler = (ctx) => ctx.json(200, modelView(findModel(ctx.params.model!, null)));

/**
 * `POST /v1/chat/completions` (OpenAI's shapes): oz-chat answers `Hello from oz-chat. You said: <the last user
 * message>` (or what `tool_choice` and `response_format` ask, or a stub's scripted reply: models/chatChoices.ts), `n`
 * choices, ended at a stop sequence, cut at `max_tokens`; `stream: true` answers `chat.completion.chunk` events
 * (tool calls in OpenAI's delta form) then `data: [DONE]`.
 */
export const createChatCompletion: OperationHandler = (ctx) => {
  // The body was validated against `ChatCompletionRequest` of openapi.json.
  const b = ctx.body as ChatCompletionRequest;
  const name = model(ctx, 'chat');
  const plans = choicePlans(chatAsk(b), b, name, ctx.scriptedReply);
  const completionTokens = plans.reduce((n, plan) => n + planTokens(plan), 0);
  const promptTokens = b.messages.reduce((n, m) => n + countWords(messageText(m.content)), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  ctx.parts.store.charge(ctx.account, usage.total_tokens * TOKEN_MICROS);
  const head = { id: `chatcmpl-${randomAlnum(24)}`, created: Math.floor(ctx.parts.clock.now() / 1000), model: name };
  if (b.stream !== true) {
    const completion: ChatCompletion = { ...head, object: 'chat.completion', choices: completionChoices(plans), usage, system_fingerprint: 'fp_oz_mock' };
    return ctx.json(200, completion);
  }
  const includeUsage = isPlainObject(b.stream_options) && b.stream_options.include_usage === true;
  const chunk = (index: number, step: ChunkStep): string => {
    const c: ChatCompletionChunk = {
      ...head,
      object: 'chat.completion.chunk',
      choices: [{ index, delta: step.delta, finish_reason: step.finish, logprobs: null }],
    };
    if (includeUsage) c.usage = null;
    return JSON.stringify(c);
  };
  const stream = ctx.openStream();
  const clock = ctx.parts.clock;
  void ctx.parts.work.track(
    (async () => {
      for (const [index, plan] of plans.entries()) {
        for (const step of chunkSteps(plan)) {
          if (step.paced) await paceToken(clock, ctx.parts.options.timing.tokenMs);
          if (!stream.isOpen) return;
          stream.send(null, chunk(index, step));
          const behind = stream.ready();
          if (behind) await behind;
        }
      }
      if (includeUsage) stream.send(null, JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [], usage }));
      stream.send(null, '[DONE]');
      stream.close();
    })(),
  );
  return ctx.stream(stream);
};

/** A deterministic unit vector for a text: hashes of the text, as numbers from -1 to 1, normalized. */
export function embed(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readUInt16BE(i) / 32767.5 - 1);
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0)) || 1;
  return values.map((v) => Math.fround(v / norm));
}

/** `POST /v1/embeddings` (OpenAI's shape): oz-embed's deterministic vectors, as floats or base64. */
export const createEmbedding: OperationHandler = (ctx) => {
  // The body was validated against `EmbeddingRequest` of openapi.json.
  const b = ctx.body as EmbeddingRequest;
  const name = model(ctx, 'embedding');
  const inputs = typeof b.input === 'string' ? [b.input] : b.input;
  const encoding = b.encoding_format ?? 'float';
  const dimensions = b.dimensions ?? EMBEDDING_DIMENSIONS;
  const tokens = inputs.reduce((n, s) => n + countWords(s), 0);
  ctx.parts.store.charge(ctx.account, tokens * TOKEN_MICROS);
  const answer: EmbeddingResponse = {
    object: 'list',
    model: name,
    data: inputs.map((text, index) => {
      const vector = embed(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: encoding === 'float' ? vector : Buffer.from(new Float32Array(vector).buffer).toString('base64'),
      };
    }),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  return ctx.json(200, answer);
};
