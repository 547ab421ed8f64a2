// The core imports nothing of ours, so the few contract shapes it reads are declared in it; here each is held
// equal to the generated schema type it stands for (`tsc --noEmit` fails on drift). The calls never run.
import { describe, expectTypeOf, it } from 'vitest';
import type { ConnectInfo } from '../../src/core/errors/errorShape.js';
import type { AsyncPointerAnswer } from '../../src/core/executions/asyncPointer.js';
import type { ExecutionResultAnswer } from '../../src/core/executions/executionPoller.js';
import type { ExecutionRecordAnswer } from '../../src/core/shared/pollTypes.js';
import type { Operation } from '../../src/core/shared/operation.js';
import type { Format } from '../../src/core/shared/requestOptions.js';
import type { components } from '../../src/generated/openapi.js';
import type { OPERATIONS } from '../../src/generated/operations.js';

type Schemas = components['schemas'];

function drift() {
  expectTypeOf<Format>().toEqualTypeOf<Schemas['Format']>();
  expectTypeOf<ConnectInfo>().toEqualTypeOf<Schemas['ConnectInfo']>();
  expectTypeOf<ExecutionResultAnswer>().toEqualTypeOf<Schemas['ExecutionResult']>();
  expectTypeOf<AsyncPointerAnswer>().toEqualTypeOf<Schemas['AsyncPointer']>();
  expectTypeOf<ExecutionRecordAnswer['status']>().toEqualTypeOf<Schemas['Execution']['status']>();
  expectTypeOf<(typeof OPERATIONS)[keyof typeof OPERATIONS]>().toExtend<Operation>();
}

describe("the core's contract shapes", () => {
  it('equal the generated schema types (checked by tsc)', () => {
    expectTypeOf(drift).toBeFunction();
  });
});
