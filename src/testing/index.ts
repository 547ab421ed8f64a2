/**
 * `oz-sdk/testing`: an embedded, stateful, in-memory Oz server for tests. It serves the whole API of
 * openapi.json with the service's behaviour, seeded with the contract's demo account, through three mounts:
 * `server.fetch` (in process), `server.handlers()` (msw) and `server.listen()` (real sockets).
 *
 * @packageDocumentation
 */
export { createOzServer } from './server.js';
export type { ListenOptions, OzListener, OzServer, OzSnapshot, OzItemControls, ItemPatch } from './public/ozServer.js';
export type { OzServerOptions, OzSeedFunction } from './public/options.js';
export type { OperationId } from '../generated/operations.js';
export { connectOzMock } from './control/remote.js';
export { build, createBuilders, type BuildersOptions, type BuiltPage, type OzBuilders } from './builders/builders.js';
export type { BuiltResources } from '../generated/builders.js';
export type {
  Awaitable,
  ConnectOzMockOptions,
  JournalRecord,
  LegacyRemoteKeyOptions,
  OzControls,
  OzControlsSession,
  OzWorldControls,
  PortableKeyControls,
  PortableSessionOptions,
  OzMockClient,
  OzMockControls,
  OzMockSession,
  PortableFaultSpec,
  PortableStubSpec,
  PortableUncheckedStubSpec,
  PortableJournalFilter,
  RemoteClock,
  RemoteFault,
  RemoteFaultHandle,
  RemoteStubHandle,
} from './control/remote.js';
export type { FixtureAgent, FixtureBehaviour, FixtureCase, FixtureDocument, FixtureError, FixtureTool } from './fixtures/fixtureFormat.js';
export type { FixtureSummary } from './fixtures/fixtures.js';
export type { OzStateDocument, StateAccount, NativeEntry } from './fixtures/stateDocument.js';
export type { JournalEntryView } from './control/journalView.js';
export type { OzSettings } from './control/settings.js';
export type { RetentionOptions } from './state/retention.js';
export type { OzClock, OzClockOptions } from './time/clock.js';
export type { OzDashboard } from './mounts/dashboard.js';
export type { OzJournal, JournalEntry, JournalFilter, JournalHeaders, FaultType, VerifyOptions, JournalChaos } from './harness/journal.js';
export { OzVerificationError } from './harness/verificationError.js';
export type { OzCoverageReport, CoverageOperation, CoverageResponse, CoverageSummary, CoverageCounts, CoverageAnswerer } from './harness/coverage.js';
export { expectCoverage, type CoverageLimits, type CoverageRequirement, type CoverageSource } from './harness/coverageGate.js';
export { OzCoverageError } from './harness/coverageError.js';
export type { Difference, NearMiss, SeenRequest } from './harness/nearMisses.js';
export type { OzFaults, FaultSpec, FaultAction, FaultScope, FaultHandle, FaultBodyMatch } from './harness/faults.js';
export type { OzChaos, ChaosDocument, ChaosRule, ChaosMatch, ChaosFault, ChaosLatency } from './harness/chaos.js';
export type { ResponseEvent, ResponseListener, RouteKind } from './harness/serverEvents.js';
export type { AgentDefinition, ToolDefinition, PipelineStepDefinition, RunContext } from './state/catalog.js';
export type { AccountOptions, KeyOptions, KeyExpiryDays, CreatedKey, CompanyOptions, BuildingOptions, WorkflowOptions } from './state/store.js';
export type { DemoKeys } from './state/demoSeed.js';
export type { KeyView, OzKeyControls } from './state/keyControls.js';
export type { ConnectionView, LinkConnectionOptions, OzConnectionControls } from './state/connectionControls.js';
export type { StepFailure } from './runs/itemWalker.js';
export type { Tier, KeyKind } from './state/state.js';
export type { MountKind, Surface } from './wire/connection.js';
export type { MswHandlerOptions, MswModule } from './mounts/mswMount.js';
export { OzMockError, type OzMockErrorFields } from './contract/errors.js';
export { OzServerClosedError } from './contract/serverClosedError.js';
export { OzNoDemoKeyError } from './contract/noDemoKeyError.js';
export { CLIENT_ADDRESS_HEADER } from './mounts/fetchMount.js';
export type { OzSession, OzSessionOptions, OzSessionControls, OzResetOptions } from './public/ozServer.js';
export type { SessionKey } from './public/ozServer.js';
export type {
  AnyOperationStub,
  TypedOperationStub,
  OperationAnswer,
  OperationAnswerBody,
  OperationRequestBody,
  OperationStatus,
  OperationStreamEvent,
  OperationStub,
  OperationStubMatch,
  OperationStubRequest,
  UncheckedOperationStub,
} from './pipeline/stubs/operationStub.js';
export type {
  OzStubs,
  StubSpec,
  StubAnswer,
  StubMatch,
  StubRequest,
  StubHandle,
  StubThen,
  StubView,
  StubEvent,
  StubCut,
  AnyStubAnswer,
  ProxyAnswer,
} from './pipeline/stubs/stubs.js';
export type { OzUnused, ArmedFaultView, NearMissed } from './pipeline/stubs/unused.js';
export type { JournalContentFilter } from './harness/journalMatch.js';
export { readStubFile, StubFileError } from './fixtures/stubFile.js';
export type { Har, HarEntry, HarRequest, HarResponse, HarContent, HarPair, HarPostData } from './recording/har.js';
