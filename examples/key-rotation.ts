/**
 * Rotating a key without downtime: create a new key, switch the clients to it, confirm with whoami, revoke the
 * old one. A revoked key keeps working while the service's key cache holds it (about two minutes), then 401.
 *
 *   node --import tsx examples/key-rotation.ts
 *
 * The dashboard's keys tab, where keys are created and revoked, is played by the embedded server's seeding
 * helpers (`addKey`, `revokeKey`), and its clock skips the two minutes, so this example always uses it.
 */
import { Oz, UnauthorizedError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = createOzServer();
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
console.log('before:', (await oz.whoami()).key_label); // demo key

// #region rotate
// 1. Create a new key in the dashboard's keys tab (here the embedded server stands in). Its value is shown once.
const created = server.addKey({ account: 'demo', name: 'production 2026-12', expiresInDays: 365 });

// 2. Switch to the new key: withOptions() gives a client with the same settings and another key.
const rotated = oz.withOptions({ apiKey: created.key });

// 3. Confirm the new key works, and is the one you meant, before revoking the old one.
const me = await rotated.whoami();
console.log('after:', me.key_label, me.tier); // production 2026-12 pro

// 4. Revoke the old key in the dashboard (here the embedded server stands in).
server.revokeKey(server.apiKey);
console.log('old key right after revoking:', (await oz.whoami()).key_label); // demo key: the key cache still holds it
// #endregion

// #region revoked
// About two minutes later the revocation has reached every node: the old key answers 401.
await server.clock.advance(2 * 60_000 + 1); // the embedded server's clock skips the wait
try {
  await oz.tools.execute('echo', { text: 'old key' });
} catch (error) {
  if (!(error instanceof UnauthorizedError)) throw error;
  console.log('old key now:', error.message); // 401 unauthorized: This key was revoked.
}
console.log('new key now:', (await rotated.tools.execute('echo', { text: 'new key' })).content); // new key
// #endregion

// #region provider
// One client for the whole rotation: apiKey may be a function (sync or async), asked for every call. Switch what it
// answers and the next call uses the new key; a call that still met the old one gets a 401, after which the
// function is asked once more and the call retried once with the new key (the same x-trace-id: nothing runs twice).
const secrets = { current: created.key }; // where your application reads its key: a file, a secret store, ...
const live = new Oz({ baseURL: server.url, apiKey: () => secrets.current, fetch: server.fetch, logLevel: 'off' });
const next = server.addKey({ account: 'demo', name: 'production 2027-01', expiresInDays: 365 }); // 1. create
secrets.current = next.key; // 2. switch: no new client
console.log('provider:', (await live.whoami()).key_label); // 3. confirm: production 2027-01
server.revokeKey(created.key); // 4. revoke
await server.clock.advance(2 * 60_000 + 1);
console.log('still serving:', (await live.tools.execute('echo', { text: 'no downtime' })).content); // no downtime
// #endregion

await server.close();
