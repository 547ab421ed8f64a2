/**
 * `server.coverage()`: every operation of openapi.json with every response it declares, how many requests of the
 * run got each and by what (handler, stub, fault, chaos), the undeclared answers apart, and the summary over the
 * operations called; reset clears it unless `{ coverage: 'keep' }`; a session's requests count in the server's too.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createOzServer, type CoverageResponse, type OzCoverageReport, type OzServer } from '../../../src/testing/index.js';
import { COVERAGE_SCHEMA } from '../../../src/testing/control/controlOpenapi.js';
import { DECLARED_RESPONSES } from '../../../src/testing/contract/declaredResponses.js';
import { RUN_STATUSES, sendRun } from './coverageRun.js';

const TOKEN = 'ozadm_CoveCoveCoveCoveCoveCoveCoveCove';
let server: OzServer;
afterEach(() => server?.close());

const fresh = () => (server = createOzServer({ adminToken: TOKEN }));
const target = (s: OzServer) => ({ url: s.url, apiKey: s.apiKey, adminToken: TOKEN, fetch: s.fetch });

function responsesOf(report: OzCoverageReport, operationId: string): readonly CoverageResponse[] {
  return report.operations.find((o) => o.operationId === operationId)!.responses;
}

/** The responses some request got, as `status code streamed count by` lines. */
function got(report: OzCoverageReport, operationId: string): string[] {
  return responsesOf(report, operationId)
    .filter((r) => r.count > 0)
    .map(
      (r) =>
        `${r.status} ${r.code ?? '-'}${r.streamed ? ' streamed' : ''} x${r.count} ${Object.entries(r.by)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k}:${n}`)
          .join(',')}${r.declared ? '' : ' undeclared'}`,
    );
}

const calls = (report: OzCoverageReport, operationId: string) => report.operations.find((o) => o.operationId === operationId)!.calls;

describe('server.coverage()', () => {
  it('lists every operation of openapi.json with every response it declares, nothing counted before a request', () => {
    const report = fresh().coverage();
    expect(report.operations.map((o) => o.operationId)).toEqual([...DECLARED_RESPONSES.keys()]);
    for (const o of report.operations) {
      expect(o.calls).toBe(0);
      expect(o.responses).toEqual(
        DECLARED_RESPONSES.get(o.operationId)!.map((r) => ({ ...r, count: 0, by: { handler: 0, stub: 0, fault: 0, chaos: 0 }, declared: true })),
      );
    }
    expect(report.summary).toEqual({ declared: 0, covered: 0, share: 0 });
  });

  it('counts each answer under its status, code and form, by what gave it; an undeclared answer apart; a dropped request as a call only', async () => {
    fresh();
    expect(await sendRun(target(server))).toEqual(RUN_STATUSES);
    const report = server.coverage();
    expect(got(report, 'listTools')).toEqual(['200 - x2 handler:2', '429 rate_limited x1 fault:1']);
    expect(got(report, 'executeTool')).toEqual(['200 - x1 handler:1', '424 connection_required x1 handler:1']);
    expect(got(report, 'executeAgent')).toEqual(['200 - streamed x1 handler:1']);
    expect(got(report, 'getTool')).toEqual(['404 tool_not_found x2 handler:1,stub:1']);
    expect(got(report, 'listAgents')).toEqual(['401 unauthorized x1 handler:1']);
    expect(got(report, 'getAgent')).toEqual(['418 - x1 stub:1 undeclared']);
    expect(responsesOf(report, 'getAgent').at(-1)).toMatchObject({ status: 418, code: null, declared: false });
    expect([calls(report, 'getWorkflow'), got(report, 'getWorkflow')]).toEqual([1, []]);
    expect(calls(report, 'listTools')).toBe(3);
    expect(calls(report, 'getTool')).toBe(2);
  });

  it('sums the declared responses of the operations called, undeclared ones left out', async () => {
    fresh();
    await sendRun(target(server));
    const report = server.coverage();
    const called = report.operations.filter((o) => o.calls > 0);
    expect(called.map((o) => o.operationId).sort()).toEqual(['executeAgent', 'executeTool', 'getAgent', 'getTool', 'getWorkflow', 'listAgents', 'listTools']);
    const declared = called.reduce((n, o) => n + DECLARED_RESPONSES.get(o.operationId)!.length, 0);
    // listTools 200 and 429, executeTool 200 and 424, executeAgent 200 streamed, getTool 404, listAgents 401.
    expect(report.summary).toEqual({ declared, covered: 7, share: 7 / declared });
  });

  it("is the documented JSON Schema (the control plane's Coverage)", async () => {
    fresh();
    await sendRun(target(server));
    const validate = new Ajv2020({ strict: false }).compile(COVERAGE_SCHEMA);
    expect(validate(server.coverage()), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ operations: [], summary: { declared: 1, covered: 0, share: 2 } })).toBe(false);
  });

  it("counts the answer of a cut or lost answer as the fault's, and a delay as the server's", async () => {
    fresh();
    server.faults.add({ operationId: 'listTools', type: 'lose', times: 1 });
    await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } }).catch(() => null);
    server.faults.add({ operationId: 'listTools', type: 'delay', ms: 0, times: 1 });
    await (await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } })).text();
    expect(got(server.coverage(), 'listTools')).toEqual(['200 - x2 handler:1,fault:1']);
    expect(server.journal.entries.map((e) => e.answeredBy)).toEqual(['fault', 'handler']);
  });
});

describe('reset and sessions', () => {
  it('reset() clears the counts; reset({ coverage: "keep" }) keeps them', async () => {
    fresh();
    await sendRun(target(server));
    const before = server.coverage();
    server.reset({ coverage: 'keep' });
    expect(server.coverage()).toEqual(before);
    server.reset();
    expect(server.coverage().summary).toEqual({ declared: 0, covered: 0, share: 0 });
  });

  it('refuses a bad reset option with a TypeError naming it, and changes nothing', async () => {
    fresh();
    await sendRun(target(server));
    const before = server.coverage();
    expect(() => server.reset({ coverage: 'forget' as never })).toThrow(new TypeError('reset(): coverage must be "keep" or "clear", not "forget"'));
    expect(server.coverage()).toEqual(before);
    expect(server.journal.entries.length).toBeGreaterThan(0);
  });

  it("counts a session's requests in the session's report and in the server's", async () => {
    fresh();
    const session = server.session();
    await (await session.fetch(`${session.url}/v1/tools`, { headers: { authorization: `Bearer ${session.apiKey}` } })).text();
    expect(got(session.coverage(), 'listTools')).toEqual(['200 - x1 handler:1']);
    expect(got(server.coverage(), 'listTools')).toEqual(['200 - x1 handler:1']);
    await (await server.fetch(`${server.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}` } })).text();
    expect(got(session.coverage(), 'listTools')).toEqual(['200 - x1 handler:1']);
    expect(got(server.coverage(), 'listTools')).toEqual(['200 - x2 handler:2']);
    session.reset();
    expect(session.coverage().summary.declared).toBe(0);
    expect(got(server.coverage(), 'listTools')).toEqual(['200 - x2 handler:2']);
  });
});
