import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_RETRY_WINDOW_SECONDS } from '../../../functions/contract/journal';
import { silentLog } from '../../../functions/domain/shared/log';
import { createJournalStore } from '../../../functions/dynamodb/journal/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeReconciler } from '../../../functions/handlers/reconciler/compose';
import { recordingMetrics } from '../../support/fakes/metrics';
import type { journalApi } from '../../support/journal/journal';
import { startJournalFixture } from '../../support/journal/journal-fixture';

/**
 * docs/contract.md §30: a journal that trails `version` beyond the projector's retry window is
 * a reconciler finding `journal_version_gap`, recorded once and counted for its alarm.
 */
let client: DynamoDBClient;
let tableName: string;
let api: ReturnType<typeof journalApi>;
let close: () => Promise<void>;

beforeAll(async () => {
  const fixture = await startJournalFixture();
  ({ client, tableName, api, close } = fixture);
});
afterAll(() => close?.());

const T0 = new Date();
const reconcileAt = (now: Date) => {
  const metrics = recordingMetrics();
  const run = composeReconciler({
    dynamo: client,
    config: { tableName },
    log: silentLog,
    metrics,
    clock: () => now,
  });
  return { run, metrics };
};

describe('a journal stuck behind its account (docs/contract.md §30)', () => {
  it('is a journal_version_gap finding once it outlives the retry window, recorded once', async () => {
    const accountId = await api.account(10);
    const records = await api.caughtUp(accountId);
    const head = records.at(-1)?.sequence ?? 0;
    // A change whose journal records never came (its stream record expired unprojected).
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.account(accountId)),
        // Without its changes, so the running projector has nothing to write for it.
        UpdateExpression: 'SET #version = #version + :one REMOVE #changes',
        ExpressionAttributeNames: { '#version': 'version', '#changes': 'lastChanges' },
        ExpressionAttributeValues: marshall({ ':one': 1 }),
      }),
    );
    // What the projector does when the next update finds the head behind it.
    await createJournalStore({ client, tableName }).markForReconcile(accountId, head);

    const early = await reconcileAt(T0).run();
    expect(early.findings.filter((f) => f.accountId === accountId)).toEqual([]);
    const withinWindow = new Date(T0.getTime() + JOURNAL_RETRY_WINDOW_SECONDS * 1000);
    expect((await reconcileAt(withinWindow).run()).findings).toEqual([]);

    const late = reconcileAt(new Date(withinWindow.getTime() + 1000));
    const found = (await late.run()).findings.filter((f) => f.accountId === accountId);
    expect(found).toEqual([
      expect.objectContaining({
        check: 'journal_version_gap',
        sequence: head + 1,
        expected: head + 1,
        actual: head,
      }),
    ]);
    expect(late.metrics.counts.get('JournalVersionGapFindings')).toBe(1);

    // Once: later runs, and a projector marking it again, add nothing.
    await createJournalStore({ client, tableName }).markForReconcile(accountId, head);
    const again = await reconcileAt(new Date(withinWindow.getTime() + 60_000)).run();
    expect(again.findings).toEqual([]);
  });
});
