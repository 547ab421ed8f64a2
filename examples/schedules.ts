/**
 * Schedules: run an agent, a tool or a workflow on a cron in a time zone; run one now; see what it ran.
 *
 *   node --import tsx examples/schedules.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set. The embedded server's clock starts here on a Monday
 * at 08:55 in Paris, and the example moves it forward to see the 09:00 run fire.
 */
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer({ clock: { start: '2026-11-23T07:55:00Z' } });
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region create
const schedule = await oz.schedules.create({
  name: 'morning digest',
  cron: '0 9 * * 1-5', // 09:00 on weekdays
  timezone: 'Europe/Paris',
  target: { kind: 'agent', name: 'writer' },
  input: { user_request: 'the morning digest' },
  enabled: true,
});
console.log(schedule.id, schedule.next_run_at); // sch_... 2026-11-23T08:00:00.000Z (09:00 in Paris)
// #endregion

// #region run-now
// Run it now, outside its cron: an async pointer to wait on.
const pointer = await oz.schedules.run(schedule.id);
const now = await pointer.wait();
console.log(now.content); // Here is a draft for: the morning digest
// #endregion

if (server) {
  // #region clock
  // In a test, move the embedded server's clock past 09:00 (Paris) instead of waiting for it.
  await server.clock.advance(6 * 60_000);
  await server.idle(); // the run the schedule started has finished
  // #endregion
  const runs = [];
  for await (const execution of oz.executions.list()) if (execution.target === 'writer') runs.push(execution.created_at);
  console.log(`writer runs: ${runs.length}`); // 2: one run now, one on the cron
  console.log('next run:', (await oz.schedules.get(schedule.id)).next_run_at); // 2026-11-24T08:00:00.000Z
}

// #region manage
for await (const each of oz.schedules.list()) console.log(each.name, each.cron, each.timezone, each.enabled);
await oz.schedules.delete(schedule.id);
// #endregion

await server?.close();
