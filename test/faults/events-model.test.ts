import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLog } from '../../functions/domain/shared/log';
import { METRICS } from '../../functions/domain/shared/metrics';
import { keys } from '../../functions/dynamodb/table/keys';
import { composeEventsHandler } from '../../functions/handlers/events/compose';
import type { EventsHandler } from '../../functions/handlers/events/consumer';
import { composeHttpHandler } from '../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../kit/http-event';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../kit/ledger-events';
import { type ContentionLayer, startContentionLayer } from '../../local/services/contention/proxy';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../local/services/dynamodb/table';
import { testConfig } from '../support/config';
import { dynamoEndpoint } from '../support/dynamo-lease';
import {
  expectExactJournal,
  type JournalTopic,
  journalApi,
  startJournalTopic,
  startProjector,
} from '../support/journal/journal';
import { assertWithinBudget } from '../support/model/budget';
import {
  applyRecord,
  type EventsModelState,
  initialEventsState,
  type ModelAccount,
  type ModelEvent,
  sequenceView,
} from '../support/model/events-model';

/**
 * Model-based (docs/contract.md §6, §20): random batches of ledger events — credits, debits,
 * duplicates, id conflicts, unknown accounts, wrong currencies, overdrafts, reused paymentIds,
 * sequences with gaps, bodies that never parse — run through the consumer on DynamoDB Local
 * behind the contention layer, one batch after another (the lanes of a batch run at once). After
 * every batch the consumer must agree with the pure model (test/support/model/events-model.ts),
 * applied record by record in batch order, on every dead-letter code and every balance; at the
 * end on every entry and every sequence. The batched consumer and the per-record one (today's
 * path) both run every plan, each on its own accounts: batching changes nothing a record does,
 * and the journal projector turns both into the same contiguous, exact journals (§15).
 */
/** The dead-letter queue's client alone is mocked: the journal topic's SQS is real. */
const dlqClient = new SQSClient({ region: 'us-east-1' });
const sqs = mockClient(dlqClient);
let direct: DynamoDBClient;
let layer: ContentionLayer;
let client: DynamoDBClient;
let topic: JournalTopic;
let projector: Awaited<ReturnType<typeof startProjector>>;
const tableName = `events-model-${randomUUID()}`;
const config = testConfig({ tableName });
const QUEUE = 'http://127.0.0.1:9/000000000000/ledger-events-dlq';

beforeAll(async () => {
  direct = localDynamoClient(dynamoEndpoint());
  await ensureLedgerTable(direct, tableName);
  layer = await startContentionLayer({ upstream: dynamoEndpoint() });
  client = localDynamoClient(layer.endpoint);
  topic = await startJournalTopic();
  projector = await startProjector(direct, tableName, topic);
});
afterAll(async () => {
  await projector?.stop();
  await topic?.stop();
  client.destroy();
  direct.destroy();
  await layer.close();
});

const http = () =>
  composeHttpHandler({
    dynamo: direct,
    config,
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
/** Events each side applied in batched writes: the batched side must really batch. */
const batchedEvents = { batched: 0, perRecord: 0 };
const consumer = (batchWrites: boolean): EventsHandler =>
  composeEventsHandler({
    dynamo: client,
    sqs: dlqClient,
    config: {
      ...config,
      deadLetterQueueUrl: QUEUE,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
    },
    log: silentLog,
    metrics: {
      count: (name, value = 1) => {
        if (name === METRICS.ledgerEventsBatched) {
          batchedEvents[batchWrites ? 'batched' : 'perRecord'] += value;
        }
      },
      seconds: () => {},
    },
    batchWrites,
  });

/** Account slots: two in EUR, one in USD, one that does not exist. */
const CURRENCIES = ['EUR', 'EUR', 'USD'] as const;
const SLOTS = CURRENCIES.length + 1;

interface Spec {
  readonly slot: number;
  readonly debit: boolean;
  readonly amount: number;
  readonly wrongCurrency: boolean;
  readonly payment: number | undefined;
  readonly source: number;
  readonly sequence: number | undefined;
  /** Reuse the (source, id) of an earlier event of the same slot: same body, or other content. */
  readonly reuse: { readonly of: number; readonly same: boolean } | undefined;
  /** A body that never parses, or an event with a negative amount. */
  readonly poison: 'json' | 'schema' | undefined;
}

/** `undefined` `none` times as often as a value of `some`. */
const sometimes = <T>(some: fc.Arbitrary<T>, none: number) =>
  fc.oneof({ weight: none, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: some });

const specArb: fc.Arbitrary<Spec> = fc.record({
  slot: fc.nat({ max: SLOTS - 1 }),
  debit: fc.boolean(),
  amount: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(100, 50)),
  wrongCurrency: fc.integer({ min: 0, max: 9 }).map((n) => n < 1),
  payment: sometimes(fc.nat({ max: 2 }), 3),
  source: fc.nat({ max: 1 }),
  sequence: sometimes(fc.integer({ min: 1, max: 12 }), 1),
  reuse: sometimes(fc.record({ of: fc.nat(), same: fc.boolean() }), 5),
  poison: sometimes(fc.constantFrom('json' as const, 'schema' as const), 15),
});
const planArb = fc.array(fc.array(specArb, { minLength: 1, maxLength: 14 }), {
  minLength: 1,
  maxLength: 5,
});

interface Built {
  readonly messageId: string;
  readonly body: string;
  readonly meaning: ModelEvent | { readonly code: string };
}

/** Turns specs into SQS bodies for one run's accounts and sources, and what each body means. */
function build(
  plan: readonly (readonly Spec[])[],
  accounts: readonly string[],
  run: string,
): Built[][] {
  const earlier: { slot: number; event: ModelEvent; body: Record<string, unknown> }[] = [];
  return plan.map((batch) =>
    batch.map((spec) => {
      const messageId = randomUUID();
      if (spec.poison === 'json')
        return { messageId, body: '{"not json', meaning: { code: 'invalid_json' } };
      const accountId = accounts[spec.slot] as string;
      const own = CURRENCIES[spec.slot] ?? 'EUR';
      const currency = spec.wrongCurrency ? (own === 'EUR' ? 'USD' : 'EUR') : own;
      // Only within the slot: a reused (source, id) then stays in one lane, so the order in
      // which lanes run cannot change which of two bodies counts first.
      const candidates = earlier.filter((e) => e.slot === spec.slot);
      const previous = spec.reuse
        ? candidates[spec.reuse.of % Math.max(1, candidates.length)]
        : undefined;
      if (previous && spec.reuse?.same) {
        return { messageId, body: JSON.stringify(previous.body), meaning: previous.event };
      }
      const source = `urn:${run}:source-${spec.source}`;
      const id = previous ? previous.event.id : randomUUID();
      const paymentId = spec.payment === undefined ? undefined : `pay-${spec.payment}`;
      const body = ledgerEvent({
        id,
        source: previous ? previous.event.source : source,
        type: spec.debit ? 'ledger.debit.v1' : 'ledger.credit.v1',
        subject: accountId,
        amount: spec.poison === 'schema' ? -spec.amount : spec.amount,
        currency,
        ...(paymentId === undefined ? {} : { paymentId }),
        ...(spec.sequence === undefined ? {} : { sequence: spec.sequence }),
      });
      if (spec.poison === 'schema') {
        return { messageId, body: JSON.stringify(body), meaning: { code: 'schema_invalid' } };
      }
      const event: ModelEvent = {
        source: String(body.source),
        id,
        type: spec.debit ? 'debit' : 'credit',
        accountId,
        amount: spec.amount,
        currency,
        ...(paymentId === undefined ? {} : { paymentId }),
        ...(spec.sequence === undefined ? {} : { sequence: spec.sequence }),
        content: JSON.stringify({ ...body, time: undefined }),
      };
      earlier.push({ slot: spec.slot, event, body });
      return { messageId, body: JSON.stringify(body), meaning: event };
    }),
  );
}

async function createAccounts(): Promise<string[]> {
  const app = http();
  const ids: string[] = [];
  for (const currency of CURRENCIES) {
    const created = await app(
      httpEvent('POST', '/v1/accounts', {
        principal: 'events-model',
        idempotencyKey: randomUUID(),
        body: { currency },
      }),
    );
    ids.push(String(JSON.parse(created.body).id));
  }
  ids.push(randomUUID()); // never created: unknown_account
  return ids;
}

async function money(accountId: string) {
  const { Item } = await direct.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { pk: { S: keys.account(accountId).pk }, sk: { S: 'ACCOUNT' } },
      ConsistentRead: true,
    }),
  );
  return Item ? unmarshall(Item) : undefined;
}

async function partition(accountId: string, prefix: string) {
  const { Items } = await direct.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': { S: keys.account(accountId).pk },
        ':prefix': { S: prefix },
      },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => unmarshall(item));
}

/** Dead letters sent since the last call, by the SQS message they came from. */
function takeDeadLetters(): Map<string, string> {
  const letters = new Map<string, string>();
  for (const call of sqs.commandCalls(SendMessageCommand)) {
    const attributes = call.args[0].input.MessageAttributes ?? {};
    letters.set(
      String(attributes.source_message_id?.StringValue),
      String(attributes.error_code?.StringValue),
    );
  }
  sqs.resetHistory();
  return letters;
}

async function runPlan(plan: readonly (readonly Spec[])[], batchWrites: boolean) {
  const accounts = await createAccounts();
  const batches = build(plan, accounts, randomUUID().slice(0, 8));
  const parse = (body: string) =>
    batches.flat().find((b) => b.body === body)?.meaning ?? { code: 'invalid_json' };
  let model: EventsModelState = initialEventsState(
    new Map(
      accounts
        .slice(0, CURRENCIES.length)
        .map((id, i): [string, ModelAccount] => [
          id,
          { currency: CURRENCIES[i] as string, balance: 0, available: 0 },
        ]),
    ),
  );
  const handle = consumer(batchWrites);
  takeDeadLetters();
  for (const batch of batches) {
    const expectedLetters = new Map<string, string>();
    for (const record of batch) {
      const step = applyRecord(model, record.body, parse);
      model = step.state;
      if (step.outcome.kind === 'dead-lettered')
        expectedLetters.set(record.messageId, step.outcome.code);
    }
    const answer = await handle(sqsEvent(...batch.map((r) => sqsRecord(r.body, r.messageId))));
    expect(answer.batchItemFailures).toEqual([]);
    expect(Object.fromEntries(takeDeadLetters())).toEqual(Object.fromEntries(expectedLetters));
    for (const [id, expected] of model.accounts) {
      const item = await money(id);
      expect({ balance: item?.balance, available: item?.available }).toEqual({
        balance: expected.balance,
        available: expected.available,
      });
    }
  }
  const journal = journalApi(http(), 'events-model');
  for (const id of model.accounts.keys()) {
    const written = await partition(id, 'ENTRY#');
    const entries = written.map((e) => `${e.type}:${e.amount}`).sort();
    expect(entries).toEqual([...(model.entries.get(id) ?? [])].sort());
    // One journal record per entry, batched updates included (docs/contract.md §15, §20).
    const item = await money(id);
    const account = {
      balance: Number(item?.balance ?? 0),
      available: Number(item?.available ?? 0),
      version: Number(item?.version ?? 0),
    };
    expect(account.version).toBe(written.length);
    const records = account.version ? await journal.caughtUp(id) : [];
    expectExactJournal(records, account);
    expect(records.map((r) => r.entryId).sort()).toEqual(written.map((e) => e.id).sort());
    const sources = await partition(id, 'SOURCE#');
    const expected = [...model.sequences]
      .filter(([key]) => key.startsWith(`${id}\u0000`))
      .map(([key, applied]) => ({ source: key.split('\u0000')[1], ...sequenceView(applied) }));
    expect(
      sources
        .map((s) => ({ source: s.source, lastSequence: s.lastSequence, gaps: s.gaps }))
        .sort((a, b) => String(a.source).localeCompare(String(b.source))),
    ).toEqual(expected.sort((a, b) => String(a.source).localeCompare(String(b.source))));
  }
}

const spec = (overrides: Partial<Spec>): Spec => ({
  slot: 0,
  debit: false,
  amount: 100,
  wrongCurrency: false,
  payment: undefined,
  source: 0,
  sequence: undefined,
  reuse: undefined,
  poison: undefined,
  ...overrides,
});

/** Always run too: a debit of exactly the balance (the cover boundary) amid a run of credits. */
const EXACT_COVER: Spec[][] = [
  [
    spec({ amount: 60, sequence: 1 }),
    spec({ amount: 40, sequence: 3 }),
    spec({ debit: true, amount: 100, sequence: 2 }),
    spec({ debit: true, amount: 1 }),
    spec({ amount: 5, payment: 0 }),
    spec({ amount: 6, payment: 0 }),
    spec({ reuse: { of: 0, same: true } }),
    spec({ reuse: { of: 1, same: false } }),
  ],
];

it('applies every record as the model does, batched and per record alike', async () => {
  sqs.on(SendMessageCommand).resolves({ MessageId: 'dlq' });
  await assertWithinBudget(
    planArb,
    async (plan) => {
      await runPlan(plan, true);
      await runPlan(plan, false);
    },
    { numRuns: 12, examples: [[EXACT_COVER]] },
  );
  expect(batchedEvents.batched).toBeGreaterThan(0);
  expect(batchedEvents.perRecord).toBe(0);
}, 90_000);
