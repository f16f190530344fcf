import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpResponses } from '../../../functions/api/problems';
import { LedgerService } from '../../../functions/domain/accounts/service';
import type { DeadLetter, EventLedgerPort } from '../../../functions/domain/events/port';
import { EventService } from '../../../functions/domain/events/service';
import type { MovementPort } from '../../../functions/domain/movements/port';
import { createLedgerStore } from '../../../functions/dynamodb/accounts/store';
import { createEventStore } from '../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import {
  createEventsConsumer,
  type EventsHandler,
} from '../../../functions/handlers/events/consumer';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { EventSourceList } from '../../../functions/schemas/accounts';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { quietRuntime } from '../../support/runtime';

const RETENTION = 3600;
let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let now: Date;
let deadLetters: DeadLetter[];
let ledger: LedgerService;
function consumer(
  port?: EventLedgerPort,
  movements?: MovementPort,
  inboxRetentionSeconds = RETENTION,
): EventsHandler {
  const table = { client, tableName };
  return createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(
      port ?? createEventStore(table),
      movements ?? createMovementStore(table),
      {
        newId: randomUUID,
        inboxRetentionSeconds,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
      },
    ),
    deadLetters: { send: async (letter) => void deadLetters.push(letter) },
    clock: () => now,
  });
}

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  ledger = new LedgerService(
    createLedgerStore({ client, tableName }),
    createMovementStore({ client, tableName }),
    {
      idempotencyRetentionSeconds: 60,
      responses: httpResponses,
      backdateLimitDays: 90,
      newId: randomUUID,
    },
  );
});
afterAll(() => drop());
beforeEach(() => {
  // Real time: DynamoDB Local's TTL sweeper deletes items whose expiresAt is in the real past.
  now = new Date();
  deadLetters = [];
});

async function newAccount(currency = 'EUR'): Promise<string> {
  const ctx = { principal: 'producer-owner', idempotencyKey: randomUUID(), now };
  const res = await ledger.createAccount(ctx, { currency }, { currency });
  return JSON.parse(res.body).id;
}

async function figures(accountId: string) {
  const account = await ledger.getAccount('producer-owner', accountId);
  const page = await ledger.listTransactions('producer-owner', accountId, 100, undefined);
  return {
    balance: account.balance,
    effects: page.items.length,
    origins: page.items.map((e) => e.origin),
  };
}

async function sources(accountId: string) {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: marshall({ ':pk': `ACCOUNT#${accountId}`, ':p': 'SOURCE#' }),
    }),
  );
  return Items.length;
}

describe('seed scenarios', () => {
  it('ack lost after commit: the redelivery applies nothing', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    const body = ledgerEvent({ subject: accountId, amount: 250 });
    const first = await handle(sqsEvent(sqsRecord(body, 'm-1')));
    // The delete never reached SQS, so the same message comes back.
    const again = await handle(sqsEvent(sqsRecord(body, 'm-1')));
    const f = await figures(accountId);
    console.log('ack lost after commit:', f);
    expect(first.batchItemFailures).toEqual([]);
    expect(again.batchItemFailures).toEqual([]);
    expect(f).toMatchObject({ balance: 250, effects: 1, origins: ['event'] });
  });

  it('the same id from two sources is two effects', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    await handle(
      sqsEvent(
        sqsRecord(ledgerEvent({ id: 'evt-1', source: 'urn:a', subject: accountId, amount: 10 })),
        sqsRecord(ledgerEvent({ id: 'evt-1', source: 'urn:b', subject: accountId, amount: 10 })),
      ),
    );
    const f = await figures(accountId);
    console.log('same id, two sources:', f);
    expect(f).toMatchObject({ balance: 20, effects: 2 });
  });

  it('a record past its retention applies again (the documented window)', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    const body = ledgerEvent({ id: 'evt-old', subject: accountId, amount: 5 });
    await handle(sqsEvent(sqsRecord(body)));
    now = new Date(now.getTime() + (RETENTION - 1) * 1000);
    await handle(sqsEvent(sqsRecord(body)));
    expect((await figures(accountId)).effects).toBe(1);
    now = new Date(now.getTime() + 2000);
    await handle(sqsEvent(sqsRecord(body)));
    const f = await figures(accountId);
    console.log('redelivered after the inbox window:', f);
    expect(f).toMatchObject({ balance: 10, effects: 2 });
  });

  it('a redelivery days later is a duplicate before its effectiveAt is judged (§31)', async () => {
    const accountId = await newAccount();
    const handle = consumer(undefined, undefined, 30 * 86_400);
    const effectiveAt = new Date(now.getTime() - 89 * 86_400_000).toISOString();
    const body = ledgerEvent({ id: 'evt-aged', subject: accountId, amount: 7, effectiveAt });
    expect((await handle(sqsEvent(sqsRecord(body)))).batchItemFailures).toEqual([]);
    // Two days on, effectiveAt lies 91 days back: past the limit, yet the inbox answers first.
    now = new Date(now.getTime() + 2 * 86_400_000);
    expect((await handle(sqsEvent(sqsRecord(body)))).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    expect(await figures(accountId)).toMatchObject({ balance: 7, effects: 1 });
    // Another event at that time was never seen: poison validation_failed, nothing moved.
    const fresh = ledgerEvent({ id: 'evt-aged-2', subject: accountId, amount: 7, effectiveAt });
    await handle(sqsEvent(sqsRecord(fresh)));
    expect(deadLetters.map((letter) => letter.code)).toEqual(['validation_failed']);
    expect(await figures(accountId)).toMatchObject({ balance: 7, effects: 1 });
  });

  it('marking "seen" before the effect loses the message on a crash; one transaction does not', async () => {
    const accountId = await newAccount();
    const body = ledgerEvent({ id: 'evt-crash', subject: accountId, amount: 70 });
    // Wrong order (test double, not production code): mark seen, crash, then the effect.
    const seen = new Set<string>();
    let crashNext = true;
    const seenFirst = async (record: ReturnType<typeof sqsRecord>) => {
      const event = JSON.parse(record.body) as { source: string; id: string };
      const key = `${event.source}|${event.id}`;
      if (seen.has(key)) return 'duplicate';
      seen.add(key);
      if (crashNext) {
        crashNext = false;
        throw new Error('crash after marking seen');
      }
      return 'applied';
    };
    await seenFirst(sqsRecord(body)).catch(() => 'crashed');
    const redelivered = await seenFirst(sqsRecord(body));
    const wrongOrderEffects = redelivered === 'applied' ? 1 : 0;

    // Ours: the same crash before the commit leaves nothing, so the redelivery applies.
    const real = createMovementStore({ client, tableName });
    let crash = true;
    const crashing: MovementPort = {
      ...real,
      post: async (...args) => {
        if (crash) {
          crash = false;
          throw new Error('crash before commit');
        }
        return real.post(...args);
      },
    };
    const handle = consumer(undefined, crashing);
    const firstTry = await handle(sqsEvent(sqsRecord(body, 'm-crash')));
    const secondTry = await handle(sqsEvent(sqsRecord(body, 'm-crash')));
    const f = await figures(accountId);
    console.log(
      `crash contrast: seen-first effects=${wrongOrderEffects}, ours effects=${f.effects}`,
    );
    expect(wrongOrderEffects).toBe(0);
    expect(firstTry.batchItemFailures).toEqual([{ itemIdentifier: 'm-crash' }]);
    expect(secondTry.batchItemFailures).toEqual([]);
    expect(f).toMatchObject({ balance: 70, effects: 1 });
  });
});

describe('partial batches and poison', () => {
  it('reports exactly the record that failed transiently', async () => {
    const accountId = await newAccount();
    const real = createEventStore({ client, tableName });
    const flaky: EventLedgerPort = {
      getSequence: (a, s) => real.getSequence(a, s),
      getAccount: (a) => real.getAccount(a),
      applyWaiver: (...args) => real.applyWaiver(...args),
      seenInbox: (claim) => real.seenInbox(claim),
      recordRefusal: (claim, refusal) => real.recordRefusal(claim, refusal),
      // The batched write of the three fails as a whole; one by one, only the flaky one does.
      applyEventRun: async (run) => {
        if (run.records.some((r) => r.claim.id === 'evt-flaky')) {
          throw new Error('ProvisionedThroughputExceeded');
        }
        return real.applyEventRun(run);
      },
    };
    const movements = createMovementStore({ client, tableName });
    const flakyMovements: MovementPort = {
      ...movements,
      post: async (once, posting, intake) => {
        if (once.kind === 'inbox' && once.claim.id === 'evt-flaky') {
          throw new Error('ProvisionedThroughputExceeded');
        }
        return movements.post(once, posting, intake);
      },
    };
    const result = await consumer(
      flaky,
      flakyMovements,
    )(
      sqsEvent(
        sqsRecord(ledgerEvent({ id: 'evt-ok-1', subject: accountId }), 'ok-1'),
        sqsRecord(ledgerEvent({ id: 'evt-flaky', subject: accountId }), 'flaky'),
        sqsRecord(ledgerEvent({ id: 'evt-ok-2', subject: accountId }), 'ok-2'),
      ),
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'flaky' }]);
    expect((await figures(accountId)).effects).toBe(2);
    expect(deadLetters).toEqual([]);
  });

  it.each<[string, (accountId: string) => unknown, string]>([
    ['not JSON', () => '{"specversion":', 'invalid_json'],
    [
      'schema-invalid',
      (a) => ({ ...ledgerEvent({ subject: a }), specversion: '0.3' }),
      'schema_invalid',
    ],
    ['an unknown account', () => ledgerEvent({ subject: randomUUID() }), 'unknown_account'],
    [
      'a currency mismatch',
      (a) => ledgerEvent({ subject: a, currency: 'USD' }),
      'currency_mismatch',
    ],
    [
      'an overdraft',
      (a) => ledgerEvent({ subject: a, type: 'ledger.debit.v1', amount: 1_000_000 }),
      'insufficient_funds',
    ],
  ])(
    'dead-letters %s once, with its code, body unchanged, and acknowledges it',
    async (_n, make, code) => {
      const accountId = await newAccount();
      const made = make(accountId);
      const body = typeof made === 'string' ? made : JSON.stringify(made);
      const result = await consumer()(sqsEvent(sqsRecord(body, 'poison-1')));
      expect(result.batchItemFailures).toEqual([]);
      expect(deadLetters).toHaveLength(1);
      expect(deadLetters[0]).toMatchObject({ body, code, sourceMessageId: 'poison-1' });
      expect(deadLetters[0]?.detail.length).toBeGreaterThan(0);
      expect((await figures(accountId)).effects).toBe(0);
    },
  );

  it('dead-letters a paymentId reused by another event', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: accountId, paymentId: 'pay-1' }))));
    const res = await handle(
      sqsEvent(sqsRecord(ledgerEvent({ subject: accountId, paymentId: 'pay-1' }))),
    );
    expect(res.batchItemFailures).toEqual([]);
    expect(deadLetters.map((d) => d.code)).toEqual(['payment_id_conflict']);
    expect((await figures(accountId)).effects).toBe(1);
  });

  it('retries the record when the DLQ cannot be reached (never drops it)', async () => {
    const handle = createEventsConsumer({
      ...quietRuntime(),
      events: new EventService(
        createEventStore({ client, tableName }),
        createMovementStore({ client, tableName }),
        {
          newId: randomUUID,
          inboxRetentionSeconds: 60,
          gapRefetchAfterSeconds: 300,
          backdateLimitDays: 90,
        },
      ),
      deadLetters: {
        send: async () => {
          throw new Error('DLQ unreachable');
        },
      },
    });
    const res = await handle(sqsEvent(sqsRecord('not json', 'lost-dlq')));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'lost-dlq' }]);
  });
});

describe('reordering and gaps', () => {
  const SOURCE = 'urn:producer:seq';

  async function eventSources(accountId: string) {
    const page = await ledger.listEventSources('producer-owner', accountId);
    return page.items;
  }

  /** Delivers `count` numbered events, minus `dropped`, shuffled, with duplicates, in batches. */
  const stream = fc.record({
    count: fc.integer({ min: 1, max: 12 }),
    duplicates: fc.array(fc.nat(), { maxLength: 8 }),
    batchSize: fc.integer({ min: 1, max: 4 }),
    order: fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 20 }),
    dropMask: fc.array(fc.boolean(), { maxLength: 12 }),
  });

  type StreamSpec = typeof stream extends fc.Arbitrary<infer T> ? T : never;

  async function deliver(spec: StreamSpec, drop: boolean) {
    const accountId = await newAccount();
    const numbers = Array.from({ length: spec.count }, (_, i) => i + 1);
    const delivered = numbers.filter((n) => !(drop && spec.dropMask[n - 1]));
    const events = delivered.map((n) =>
      ledgerEvent({
        id: `${accountId}-${n}`,
        source: SOURCE,
        subject: accountId,
        sequence: n,
        amount: n,
      }),
    );
    const withDuplicates = [
      ...events,
      // Each duplicate index names one delivered event to send again (none if all were dropped).
      ...spec.duplicates.flatMap((d) => events.filter((_, i) => i === d % events.length)),
    ];
    const shuffled = withDuplicates
      .map((body, i) => ({ body, key: spec.order[i] ?? i }))
      .sort((a, b) => a.key - b.key);
    const handle = consumer();
    for (let i = 0; i < shuffled.length; i += spec.batchSize) {
      const batch = shuffled.slice(i, i + spec.batchSize).map((e) => sqsRecord(e.body));
      expect((await handle(sqsEvent(...batch))).batchItemFailures).toEqual([]);
    }
    return { accountId, delivered, numbers };
  }

  it('applies a shuffled stream with duplicates once per distinct event; gaps close when all arrive', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (spec) => {
        const { accountId, numbers } = await deliver(spec, false);
        const f = await figures(accountId);
        expect(f.effects).toBe(spec.count);
        expect(f.balance).toBe(numbers.reduce((a, b) => a + b, 0));
        expect(await eventSources(accountId)).toMatchObject([
          { source: SOURCE, lastSequence: spec.count, gaps: [], gapsTruncated: false },
        ]);
      }),
      { numRuns: 8 },
    );
  });

  it('lists exactly the numbers that never arrived below the highest seen', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (spec) => {
        const { accountId, delivered, numbers } = await deliver(spec, true);
        const f = await figures(accountId);
        expect(f.effects).toBe(delivered.length);
        expect(f.balance).toBe(delivered.reduce((a, b) => a + b, 0));
        const highest = Math.max(0, ...delivered);
        const missing = numbers.filter((n) => n < highest && !delivered.includes(n));
        expect(await eventSources(accountId)).toMatchObject(
          highest === 0
            ? []
            : [{ source: SOURCE, lastSequence: highest, gaps: missing, gapsTruncated: false }],
        );
      }),
      { numRuns: 8 },
    );
  });

  it('records the numbers that never arrive', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    const send = (sequence: number) =>
      handle(sqsEvent(sqsRecord(ledgerEvent({ source: SOURCE, subject: accountId, sequence }))));
    await send(1);
    await send(4);
    expect(await eventSources(accountId)).toMatchObject([
      { source: SOURCE, lastSequence: 4, gaps: [2, 3], gapsTruncated: false },
    ]);
    await send(3);
    await send(9);
    const items = await eventSources(accountId);
    console.log('gaps after 1,4,3,9:', items[0]?.gaps);
    expect(items).toMatchObject([
      { source: SOURCE, lastSequence: 9, gaps: [2, 5, 6, 7, 8], gapsTruncated: false },
    ]);
    expect((await figures(accountId)).effects).toBe(4);
  });

  it('serves the gaps on GET /v1/accounts/{accountId}/event-sources, owner only', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    for (const sequence of [1, 3]) {
      await handle(
        sqsEvent(sqsRecord(ledgerEvent({ source: SOURCE, subject: accountId, sequence }))),
      );
    }
    const app = composeHttpHandler({
      dynamo: client,
      config: testConfig({ tableName }),
      callbackSecrets: staticCallbackSecrets('{}'),
    });
    const path = `/v1/accounts/${accountId}/event-sources`;
    const res = await app(httpEvent('GET', path, { principal: 'producer-owner' }));
    expect(res.statusCode).toBe(200);
    expect(EventSourceList.parse(JSON.parse(res.body))).toEqual({
      items: [
        {
          source: SOURCE,
          lastSequence: 3,
          gaps: [2],
          gapsTruncated: false,
          gapDetails: [{ number: 2, openedAt: now.toISOString() }],
          gapRanges: [],
          waived: [],
        },
      ],
    });
    expect((await app(httpEvent('GET', path, { principal: 'mallory' }))).statusCode).toBe(404);
  });

  it('caps the listed gaps at 1,000 so a forged jump cannot grow the item', async () => {
    const accountId = await newAccount();
    const handle = consumer();
    await handle(
      sqsEvent(sqsRecord(ledgerEvent({ source: SOURCE, subject: accountId, sequence: 1_000_000 }))),
    );
    const [item] = await eventSources(accountId);
    expect(item?.gaps).toHaveLength(1000);
    expect(item?.gaps[0]).toBe(1);
    expect(item?.gapsTruncated).toBe(true);
    // The rest is one range (docs/contract.md §30), not 999,000 entries.
    expect(item?.gapRanges).toEqual([{ from: 1001, to: 999_999, openedAt: expect.any(String) }]);
    expect(await sources(accountId)).toBe(1);
  });
});

describe('batched writes (docs/contract.md §20)', () => {
  const eventSources = async (accountId: string) =>
    (await ledger.listEventSources('producer-owner', accountId)).items;
  /** A store whose DynamoDB calls are counted by operation. */
  function countedStore() {
    const counted = localDynamoClient(dynamoEndpoint());
    const calls: string[] = [];
    counted.middlewareStack.add(
      (next, context) => async (args) => {
        calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    return {
      store: createEventStore({ client: counted, tableName }),
      movements: createMovementStore({ client: counted, tableName }),
      calls,
      counted,
    };
  }
  const count = (calls: string[], name: string) => calls.filter((c) => c === name).length;

  it('commits a batch of one account in one transaction, reading each source once', async () => {
    const accountId = await newAccount();
    const { store, movements, calls, counted } = countedStore();
    const records = Array.from({ length: 30 }, (_, i) =>
      sqsRecord(
        ledgerEvent({
          subject: accountId,
          source: i % 2 ? 'urn:batch:a' : 'urn:batch:b',
          sequence: Math.floor(i / 2) + 1,
          type: i % 3 === 2 ? 'ledger.debit.v1' : 'ledger.credit.v1',
          amount: i % 3 === 2 ? 1 : 10,
        }),
      ),
    );
    expect((await consumer(store, movements)(sqsEvent(...records))).batchItemFailures).toEqual([]);
    expect(count(calls, 'TransactWriteItemsCommand')).toBe(1);
    expect(count(calls, 'GetItemCommand')).toBe(2);
    expect(await figures(accountId)).toMatchObject({ balance: 20 * 10 - 10, effects: 30 });
    expect((await eventSources(accountId)).map((s) => [s.lastSequence, s.gaps])).toEqual([
      [15, []],
      [15, []],
    ]);
    counted.destroy();
  });

  it('splits 100 records of one account into transactions of at most 100 items (33 records)', async () => {
    const accountId = await newAccount();
    const { store, movements, calls, counted } = countedStore();
    const records = Array.from({ length: 100 }, () =>
      sqsRecord(ledgerEvent({ subject: accountId, amount: 1 })),
    );
    expect((await consumer(store, movements)(sqsEvent(...records))).batchItemFailures).toEqual([]);
    expect(count(calls, 'TransactWriteItemsCommand')).toBe(4);
    expect(await figures(accountId)).toMatchObject({ balance: 100, effects: 100 });
    counted.destroy();
  });

  it('falls back record by record on a duplicate, an overdraft and a reused paymentId', async () => {
    const accountId = await newAccount();
    const seen = ledgerEvent({ subject: accountId, amount: 7 });
    await consumer()(sqsEvent(sqsRecord(seen)));
    const { store, movements, calls, counted } = countedStore();
    const result = await consumer(
      store,
      movements,
    )(
      sqsEvent(
        sqsRecord(ledgerEvent({ subject: accountId, amount: 10 }), 'credit'),
        sqsRecord(seen, 'again'),
        sqsRecord(ledgerEvent({ subject: accountId, type: 'ledger.debit.v1', amount: 50 }), 'over'),
        sqsRecord(ledgerEvent({ subject: accountId, amount: 3, paymentId: 'pay-1' }), 'pay'),
        // The same paymentId twice: a second item for it would be a ValidationException, so
        // the chunk ends before it and it is judged on its own.
        sqsRecord(ledgerEvent({ subject: accountId, amount: 4, paymentId: 'pay-1' }), 'pay-again'),
      ),
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => [l.sourceMessageId, l.code])).toEqual([
      ['over', 'insufficient_funds'],
      ['pay-again', 'payment_id_conflict'],
    ]);
    expect(await figures(accountId)).toMatchObject({ balance: 7 + 10 + 3, effects: 3 });
    // One refused batched write, then each of its records on its own; the lone last one alone;
    // each of the two refusals recorded under its event id (§6).
    expect(count(calls, 'TransactWriteItemsCommand')).toBe(1 + 4 + 1 + 2);
    counted.destroy();
  });
});
