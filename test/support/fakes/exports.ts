import type { Mocked } from 'vitest';
import type { LedgerEntry } from '../../../functions/domain/accounts/model';
import type {
  ExecutionDeadlinePort,
  ExecutionTimeout,
  ExportJobQueue,
  ExportRunPort,
  ResultObjectPort,
  RunClaim,
  TaskPort,
} from '../../../functions/domain/exports/port';
import type { OutboxMarks } from '../../../functions/dynamodb/exports/outbox-store';
import { fakeOf, RECORDED } from './fake';

/** `TaskPort`: nothing is stored and every write commits, unless the test says otherwise. */
export function fakeTaskPort(overrides: Partial<TaskPort> = {}): Mocked<TaskPort> {
  return fakeOf<TaskPort>(
    {
      getAccount: async () => undefined,
      getTask: async () => undefined,
      rerun: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
    },
    overrides,
  );
}

/** `ExportRunPort`: every claim answers `claim`; the entries come as these pages, in order. */
export function fakeExportRunPort(
  claim: RunClaim = { kind: 'claimed', lastSequence: 0 },
  pages: readonly (readonly LedgerEntry[])[] = [],
): Mocked<ExportRunPort> {
  return fakeOf<ExportRunPort>({
    claimRun: async () => claim,
    async *entryPages() {
      yield* pages;
    },
  });
}

/** `ResultObjectPort`: every object exists; a presigned URL spells its key and lifetime. */
export function fakeResultObjects(
  overrides: Partial<ResultObjectPort> = {},
): Mocked<ResultObjectPort> {
  return fakeOf<ResultObjectPort>(
    {
      exists: async () => true,
      presignGet: async (key, ttl) => `https://s3.example/${key}?ttl=${ttl}`,
    },
    overrides,
  );
}

type ReadExecution = Awaited<ReturnType<ExecutionDeadlinePort['readExecution']>>;

/**
 * `ExecutionDeadlinePort` from a script: reads return the given states in turn; writes answer
 * in turn (then `moved`) and are kept in `written`.
 */
export function fakeDeadlinePort(
  reads: ReadExecution[],
  writes: Array<'committed' | 'moved'>,
): Mocked<ExecutionDeadlinePort> & { readonly written: ExecutionTimeout[] } {
  const written: ExecutionTimeout[] = [];
  const port = fakeOf<ExecutionDeadlinePort>({
    readExecution: async () => reads.shift(),
    timeOutExecution: async (timeout) => {
      written.push(timeout);
      return writes.shift() ?? 'moved';
    },
  });
  return Object.assign(port, { written });
}

/** `ExportJobQueue`: every send is accepted. */
export function fakeExportJobQueue(
  overrides: Partial<ExportJobQueue> = {},
): Mocked<ExportJobQueue> {
  return fakeOf<ExportJobQueue>({ send: async () => {} }, overrides);
}

/** The dispatcher's `OutboxMarks`: every mark succeeds. */
export function fakeOutboxMarks(overrides: Partial<OutboxMarks> = {}): Mocked<OutboxMarks> {
  return fakeOf<OutboxMarks>({ markDispatched: async () => {} }, overrides);
}
