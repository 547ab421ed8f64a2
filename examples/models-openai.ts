/**
 * The models plane speaks OpenAI's API: use the official `openai` client with base URL `{OZ_BASE_URL}/v1` and
 * your Oz key. The Oz client has the same routes too (`oz.chat.completions.create`, `oz.embeddings.create`).
 *
 *   node --import tsx examples/models-openai.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import OpenAI from 'openai';
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const baseURL = server?.url ?? process.env.OZ_BASE_URL!;
const apiKey = server?.apiKey ?? process.env.OZ_API_KEY!;

// #region openai
// The embedded server's in-process `fetch` works with the openai client too; against a real service, leave it out.
const openai = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey, fetch: server?.fetch });

const models = await openai.models.list();
console.log(models.data.map((model) => model.id)); // [ 'oz-chat', 'oz-embed' ]
const chat = await openai.models.retrieve('oz-chat');
console.log(chat.id, chat.owned_by); // oz-chat oz

const completion = await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'Hello!' }] });
console.log(completion.choices[0]?.message.content);

const chunks = await openai.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'Stream, please.' }], stream: true });
for await (const chunk of chunks) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
process.stdout.write('\n');

const embedding = await openai.embeddings.create({ model: 'oz-embed', input: 'green tea' });
console.log(embedding.data[0]?.embedding.length, 'dimensions');
// #endregion

// #region oz-client
// The same plane through the Oz client, with its retries and typed errors; a stream gives its text deltas.
const oz = new Oz({ baseURL, apiKey, fetch: server?.fetch });
const stream = await oz.chat.completions.create({ model: 'oz-chat', messages: [{ role: 'user', content: 'Hello!' }], stream: true });
for await (const text of stream.textDeltas()) process.stdout.write(text);
process.stdout.write('\n');
// #endregion

await server?.close();
