/**
 * `oz-sdk/testing`: an embedded, stateful, in-memory Oz server for tests. It serves the whole API of
 * openapi.json with the service's behaviour, seeded with the contract's demo account, through three mounts:
 * `server.fetch` (in process), `server.handlers()` (msw) and `server.listen()` (real sockets).
 *
 * @packageDocumentation
 */
export { createOzServer } from './server.js';
export type { ListenOptions, OzListener, OzServer, OzSnapshot, OzItemControls, ItemPatch } from './server.js';
export type { OzServerOptions, OzSeedFunction } from './options.js';
export type { OperationId } from '../generated/operations.js';
export { connectOzMock } from './control/remote.js';
export type {
  Awaitable,
  ConnectOzMockOptions,
  JournalRecord,
  OzControls,
  OzMockClient,
  OzMockControls,
  OzMockSession,
  PortableFaultSpec,
  PortableStubSpec,
  PortableJournalFilter,
  RemoteClock,
  RemoteFault,
  RemoteFaultHandle,
  RemoteStubHandle,
} from './control/remote.js';
export type { FixtureAgent, FixtureBehaviour, FixtureCase, FixtureDocument, FixtureError, FixtureTool } from './control/fixtureFormat.js';
export type { FixtureSummary } from './control/fixtures.js';
export type { OzStateDocument, StateAccount, NativeEntry } from './control/stateDocument.js';
export type { JournalEntryView } from './control/journalView.js';
export type { OzSettings } from './control/settings.js';
export type { RetentionOptions } from './retention.js';
export type { OzClock, OzClockOptions } from './clock.js';
export type { OzDashboard } from './dashboard.js';
export type { OzJournal, JournalEntry, JournalFilter, FaultType } from './journal.js';
export type { OzFaults, FaultSpec, FaultAction, FaultScope, FaultHandle, FaultBodyMatch } from './faults.js';
export type { ResponseEvent, ResponseListener, RouteKind } from './serverCore.js';
export type { AgentDefinition, ToolDefinition, PipelineStepDefinition, RunContext } from './catalog.js';
export type { AccountOptions, KeyOptions, KeyExpiryDays, CreatedKey, CompanyOptions, BuildingOptions, WorkflowOptions } from './store.js';
export type { DemoKeys } from './demoSeed.js';
export type { StepFailure } from './itemWalker.js';
export type { Tier, KeyKind } from './state.js';
export type { MountKind, Surface } from './connection.js';
export type { MswHandlerOptions, MswModule } from './mswMount.js';
export { OzMockError, type OzMockErrorFields } from './errors.js';
export { OzServerClosedError } from './serverClosedError.js';
export { CLIENT_ADDRESS_HEADER } from './fetchMount.js';
export type { OzSession, OzSessionOptions, OzSessionControls } from './sessions/session.js';
export type { SessionKey } from './sessions/rekey.js';
export type { OzStubs, StubSpec, StubAnswer, StubMatch, StubRequest, StubHandle, StubView } from './stubs/stubs.js';
export type { OzUnused, ArmedFaultView } from './unused.js';
export type { JournalContentFilter } from './journalMatch.js';
