import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../functions/domain/accounts/model';
import { createExportRunStore } from '../../../functions/dynamodb/exports/run-store';
import { createTestTable } from '../../support/dynamo';
import { seedAccount, seedEntries, seedExecution } from '../../support/exports/exports';

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
const NOW = new Date();
const later = (ms: number) => new Date(NOW.getTime() + ms);

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
});
afterAll(() => drop());

const jobFor = (accountId: string, ids: { taskId: string; executionId: string }) => ({
  ...ids,
  accountId,
  format: 'csv' as const,
  callbackPath: '/v1/callbacks/export-worker',
});

describe('export run store: one run per execution (docs/contract.md §12)', () => {
  it('leases an execution once; a duplicate job meanwhile is told it is leased, later it may claim', async () => {
    const store = createExportRunStore({ client, tableName });
    const accountId = await seedAccount(client, tableName);
    const job = jobFor(
      accountId,
      await seedExecution(client, tableName, accountId, { deadline: later(900_000) }),
    );

    const [first, second] = await Promise.all([
      store.claimRun(job, NOW, later(60_000)),
      store.claimRun(job, NOW, later(60_000)),
    ]);
    expect([first.kind, second.kind].sort()).toEqual(['claimed', 'leased']);
    expect(await store.claimRun(job, later(59_999), later(120_000))).toEqual({
      kind: 'leased',
      leaseUntil: later(60_000).toISOString(),
    });
    expect(await store.claimRun(job, later(60_000), later(120_000))).toEqual({
      kind: 'claimed',
      lastSequence: 0,
    });
  });

  it.each(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELED'] as const)(
    'refuses a %s execution as finished',
    async (status) => {
      const store = createExportRunStore({ client, tableName });
      const accountId = await seedAccount(client, tableName);
      const job = jobFor(accountId, await seedExecution(client, tableName, accountId, { status }));
      expect(await store.claimRun(job, NOW, later(1000))).toEqual({ kind: 'finished', status });
    },
  );

  it('refuses an execution at or past its deadline, and an unknown one', async () => {
    const store = createExportRunStore({ client, tableName });
    const accountId = await seedAccount(client, tableName);
    const job = jobFor(
      accountId,
      await seedExecution(client, tableName, accountId, { deadline: NOW }),
    );
    expect(await store.claimRun(job, NOW, later(1000))).toEqual({
      kind: 'past_deadline',
      deadline: NOW.toISOString(),
    });
    const unknown = { ...job, executionId: '00000000-0000-4000-8000-000000000000' };
    expect(await store.claimRun(unknown, NOW, later(1000))).toEqual({ kind: 'unknown_execution' });
  });
});

describe('export run store: the snapshot of entries', () => {
  it('pages every entry created up to the snapshot, oldest first, and none after it', async () => {
    const store = createExportRunStore({ client, tableName, pageSize: 4 });
    const accountId = await seedAccount(client, tableName);
    const start = new Date('2026-02-01T00:00:00.000Z');
    await seedEntries(client, tableName, accountId, 11, start);
    const other = await seedAccount(client, tableName);
    await seedEntries(client, tableName, other, 3, start);

    const upTo = new Date(start.getTime() + 8).toISOString();
    const pages: (readonly LedgerEntry[])[] = [];
    for await (const page of store.entryPages(accountId, upTo)) pages.push(page);

    const entries = pages.flat();
    expect(pages.map((p) => p.length).slice(0, 2)).toEqual([4, 4]);
    expect(entries.map((e) => e.createdAt)).toEqual(
      Array.from({ length: 9 }, (_, i) => new Date(start.getTime() + i).toISOString()),
    );
    expect(new Set(entries.map((e) => e.accountId))).toEqual(new Set([accountId]));
  });
});
