import { type DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GAP_REQUEST_ITEM_KIND } from '../../../functions/contract/gaps';
import { backfillGapIndex } from '../../../functions/dynamodb/gaps/backfill';
import { DUE_INDEX } from '../../../functions/dynamodb/table/due-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { EventSourceList } from '../../../functions/schemas/accounts';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { gapWaiver, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { recordingMetrics } from '../../support/fakes/metrics';
import { drainRequests, gapRig } from '../../support/gaps';
import { type JournalTopic, startJournalTopic } from '../../support/journal/journal';

/**
 * docs/contract.md §18 on DynamoDB Local and fauxqs' SNS: gaps open, fall due after
 * GAP_REFETCH_AFTER_SECONDS, are requested exactly once however often sweeps run, close when
 * the events come again or are waived.
 */
const AFTER = 5;
const SOURCE = 'urn:producer:gaps';
let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let topic: JournalTopic;
let rig: ReturnType<typeof gapRig>;
// DynamoDB Local's TTL sweeper runs on the real clock: start from the real time.
let T0: Date;
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  topic = await startJournalTopic();
  rig = gapRig({
    client,
    tableName,
    refetchAfterSeconds: AFTER,
    gapTopicArn: topic.topics.gaps.arn,
  });
});
afterAll(async () => {
  await topic.stop();
  await drop();
});
beforeEach(async () => {
  T0 = new Date();
  rig.deadLetters.length = 0;
  await drainRequests(topic.sqs, topic.topics.gaps.tap.url);
});

const tapped = () => drainRequests(topic.sqs, topic.topics.gaps.tap.url);

async function send(now: Date, ...bodies: Record<string, unknown>[]) {
  const result = await rig.consumer(now)(sqsEvent(...bodies.map((body) => sqsRecord(body))));
  expect(result.batchItemFailures).toEqual([]);
}
const credit = (subject: string, sequence: number, source = SOURCE) =>
  ledgerEvent({ source, subject, sequence, id: `${source}:${subject}:${sequence}` });

async function source(accountId: string, name = SOURCE) {
  const { items } = await rig.sources(accountId);
  return items.find((item) => item.source === name);
}

/** Items of the due index of a kind, due by `now`. */
async function dueOfKind(kind: string, now: Date) {
  const found: Record<string, unknown>[] = [];
  for (let shard = 0; shard < 8; shard++) {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: DUE_INDEX.name,
        KeyConditionExpression: '#s = :s AND #d <= :d',
        ExpressionAttributeNames: {
          '#s': DUE_INDEX.shardAttribute,
          '#d': DUE_INDEX.dueAtAttribute,
        },
        ExpressionAttributeValues: marshall({ ':s': shard, ':d': now.getTime() }),
      }),
    );
    found.push(...Items.map((i) => unmarshall(i)).filter((i) => i.kind === kind));
  }
  return found;
}

describe('re-fetch requests', () => {
  it('requests a gap once after GAP_REFETCH_AFTER_SECONDS, however often and concurrently sweeps run', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 4));
    expect((await source(accountId))?.gapDetails).toEqual([
      { number: 2, openedAt: T0.toISOString() },
      { number: 3, openedAt: T0.toISOString() },
    ]);

    await rig.sweeper(at(AFTER - 1), topic.sns)();
    expect(await tapped()).toEqual([]);

    // Five sweepers at once, then three more one after another.
    await Promise.all(Array.from({ length: 5 }, () => rig.sweeper(at(AFTER + 1), topic.sns)()));
    for (const s of [2, 3, 4]) await rig.sweeper(at(AFTER + s), topic.sns)();
    const requests = await tapped();
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.sourceAttribute).toBe(SOURCE);
    expect(request?.event).toMatchObject({
      specversion: '1.0',
      type: 'ledger.gap.refetch.v1',
      source: 'urn:idempotent-ledger:test',
      subject: accountId,
      data: { source: SOURCE, missing: [2, 3], openedAt: T0.toISOString() },
    });
    expect(request?.event.id).toMatch(/^[0-9a-f]{64}$/);
    const details = (await source(accountId))?.gapDetails ?? [];
    expect(details.map((d) => d.refetchRequestedAt)).toEqual([
      at(AFTER + 1).toISOString(),
      at(AFTER + 1).toISOString(),
    ]);
    expect(await dueOfKind(GAP_REQUEST_ITEM_KIND, at(3600))).toEqual([]);

    // A later gap gets a request of its own, naming only its number.
    await send(at(AFTER + 2), credit(accountId, 6));
    await Promise.all([1, 2].map(() => rig.sweeper(at(2 * AFTER + 3), topic.sns)()));
    const second = await tapped();
    expect(second.map((r) => r.event.data.missing)).toEqual([[5]]);
    expect(second[0]?.event.id).not.toBe(request?.event.id);
  });

  it('closes gaps whose events come again, and the item leaves the due index', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 3));
    await rig.sweeper(at(AFTER), topic.sns)();
    expect((await tapped()).map((r) => r.event.data.missing)).toEqual([[2]]);
    await send(at(AFTER + 1), credit(accountId, 2));
    expect(await source(accountId)).toMatchObject({ gaps: [], gapDetails: [], lastSequence: 3 });
    const due = await dueOfKind('event-source', at(100 * AFTER));
    expect(due.filter((item) => item.pk === `ACCOUNT#${accountId}`)).toEqual([]);
  });

  it('publishes a committed request on a later sweep when the topic failed, never twice', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 3));
    await rig.sweeper(at(AFTER))(); // an SNS client that reaches nothing
    expect(await tapped()).toEqual([]);
    expect((await source(accountId))?.gapDetails[0]?.refetchRequestedAt).toBe(
      at(AFTER).toISOString(),
    );
    const pending = await dueOfKind(GAP_REQUEST_ITEM_KIND, at(2 * AFTER));
    expect(pending.filter((item) => item.accountId === accountId)).toHaveLength(1);

    await rig.sweeper(at(2 * AFTER), topic.sns)();
    await rig.sweeper(at(3 * AFTER), topic.sns)();
    const requests = await tapped();
    expect(requests.map((r) => r.event.data.missing)).toEqual([[2]]);
    expect(await dueOfKind(GAP_REQUEST_ITEM_KIND, at(3600))).toEqual([]);
  });

  it('counts gaps open longer than 12 × GAP_REFETCH_AFTER_SECONDS as OverdueGaps', async () => {
    // A table of its own: the other tests' gaps would be overdue too.
    const own = await createTestTable();
    const rig = gapRig({
      client: own.client,
      tableName: own.tableName,
      refetchAfterSeconds: AFTER,
      gapTopicArn: topic.topics.gaps.arn,
    });
    const send = async (now: Date, ...bodies: Record<string, unknown>[]) =>
      rig.consumer(now)(sqsEvent(...bodies.map((body) => sqsRecord(body))));
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 4));
    await rig.sweeper(at(AFTER), topic.sns)();
    const early = recordingMetrics();
    await rig.sweeper(at(12 * AFTER - 1), topic.sns, early)();
    expect(early.counts.get('OverdueGaps')).toBe(0);
    const late = recordingMetrics();
    await rig.sweeper(at(12 * AFTER), topic.sns, late)();
    expect(late.counts.get('OverdueGaps')).toBe(2);
    expect(await tapped()).toHaveLength(1);
    await own.drop();
  });
});

describe('the backfill of gaps recorded before this release', () => {
  it('indexes old sequence items once, opened at their last write, so they get requested', async () => {
    const accountId = await rig.newAccount(T0);
    // As the consumer wrote it before gaps had details: no gapRuns, not in the due index.
    await client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: marshall({
          ...keys.eventSource(accountId, SOURCE),
          kind: 'event-source',
          source: SOURCE,
          lastSequence: 5,
          gaps: [2, 4],
          gapsTruncated: false,
          version: 3,
          updatedAt: T0.toISOString(),
        }),
      }),
    );
    const own = (items: Record<string, unknown>[]) =>
      items.filter((item) => item.pk === `ACCOUNT#${accountId}`);
    expect(own(await dueOfKind('event-source', at(3600)))).toEqual([]);
    const pages: number[] = [];
    const first = await backfillGapIndex({ client, tableName }, AFTER, (p) =>
      pages.push(p.indexed),
    );
    expect(first.indexed).toBeGreaterThanOrEqual(1);
    expect(own(await dueOfKind('event-source', at(AFTER)))).toHaveLength(1);
    expect((await backfillGapIndex({ client, tableName }, AFTER, () => {})).indexed).toBe(0);
    expect((await source(accountId))?.gapDetails).toEqual([
      { number: 2, openedAt: T0.toISOString() },
      { number: 4, openedAt: T0.toISOString() },
    ]);
    await rig.sweeper(at(AFTER), topic.sns)();
    const requests = (await tapped()).filter((r) => r.event.subject === accountId);
    expect(requests.map((r) => r.event.data.missing)).toEqual([[2, 4]]);
  });
});

describe('waivers (ledger.gap.waived.v1)', () => {
  const waiver = (subject: string, data: Record<string, unknown>, source = SOURCE) =>
    gapWaiver({ source, subject, data });

  it("closes its own source's open gaps with the reason, ignores the rest", async () => {
    const accountId = await rig.newAccount(T0);
    const other = 'urn:producer:other';
    await send(T0, credit(accountId, 1), credit(accountId, 5), credit(accountId, 3, other));
    await send(at(1), waiver(accountId, { numbers: [2], reason: 'not ours' }, other));
    expect((await source(accountId))?.gaps).toEqual([2, 3, 4]);
    // It closed its own source's 2, not SOURCE's.
    expect((await source(accountId, other))?.gaps).toEqual([1]);

    await send(at(2), waiver(accountId, { numbers: [4, 2, 9, 1], reason: 'voided upstream' }));
    expect(await source(accountId)).toMatchObject({
      gaps: [3],
      gapDetails: [{ number: 3 }],
      waived: [
        { number: 2, reason: 'voided upstream', waivedAt: at(2).toISOString() },
        { number: 4, reason: 'voided upstream', waivedAt: at(2).toISOString() },
      ],
    });
    expect(rig.deadLetters).toEqual([]);
  });

  it('dead-letters a waiver without numbers or without a reason as schema_invalid', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 3));
    await send(
      at(1),
      waiver(accountId, { numbers: [2] }),
      waiver(accountId, { numbers: [], reason: 'lost' }),
      waiver(accountId, { reason: 'lost' }),
      waiver(accountId, { numbers: [2], reason: '  ' }),
    );
    expect(rig.deadLetters.map((l) => l.code)).toEqual(Array(4).fill('schema_invalid'));
    expect((await source(accountId))?.gaps).toEqual([2]);
  });

  it('applies a waiver once: a redelivery is a duplicate', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 4));
    const body = gapWaiver({
      source: SOURCE,
      subject: accountId,
      data: { numbers: [2], reason: 'x' },
    });
    await send(at(1), body);
    await send(at(2), credit(accountId, 2, SOURCE)); // 2 is no gap any more: a stale number
    await send(at(3), body);
    expect(await source(accountId)).toMatchObject({
      gaps: [3],
      waived: [{ number: 2, waivedAt: at(1).toISOString() }],
    });
  });

  it('shows gapDetails and waived on GET /v1/accounts/{accountId}/event-sources', async () => {
    const accountId = await rig.newAccount(T0);
    await send(T0, credit(accountId, 1), credit(accountId, 4));
    await rig.sweeper(at(AFTER), topic.sns)();
    await send(at(AFTER + 1), waiver(accountId, { numbers: [3], reason: 'cancelled' }));
    const app = composeHttpHandler({
      dynamo: client,
      config: testConfig({ tableName }),
      callbackSecrets: staticCallbackSecrets('{}'),
    });
    const res = await app(
      httpEvent('GET', `/v1/accounts/${accountId}/event-sources`, { principal: 'producer-owner' }),
    );
    expect(res.statusCode).toBe(200);
    expect(EventSourceList.parse(JSON.parse(res.body)).items).toEqual([
      {
        source: SOURCE,
        lastSequence: 4,
        gaps: [2],
        gapsTruncated: false,
        gapDetails: [
          { number: 2, openedAt: T0.toISOString(), refetchRequestedAt: at(AFTER).toISOString() },
        ],
        gapRanges: [],
        waived: [{ number: 3, reason: 'cancelled', waivedAt: at(AFTER + 1).toISOString() }],
      },
    ]);
    await tapped();
  });
});
