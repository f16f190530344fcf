import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { sleep } from '../../../functions/domain/shared/retry';
import { createReconcileStore } from '../../../functions/dynamodb/reconciliation/store';
import { ledgerEvent } from '../../../kit/ledger-events';
import { type Producer, producerOf } from '../../e2e/support/producer';
import { clientFor, key, type LocalStack } from '../../e2e/support/stack';
import { queueDepth } from '../../support/queue-depth';

/** What the console test seeded, with the values each page must show. */
export interface ConsoleSeed {
  readonly producer: Producer;
  /** alice's account: two credits, a hold, two events of `source` with gaps 2 and 3. */
  readonly accountId: string;
  /** bob's account: empty, with a seeded reconciliation finding. */
  readonly otherId: string;
  /** alice's deferred account: SEEDED.pendingCredits accepted as pending credits (the folder posts them). */
  readonly deferredId: string;
  /** Their entry ids, oldest first. */
  readonly pendingIds: readonly string[];
  readonly source: string;
  /** The debit dead-lettered for insufficient funds, and the one for an unknown account. */
  readonly poisonDebitId: string;
  readonly unknownAccountEventId: string;
  readonly unknownAccountId: string;
}

/** The table of the console test's stack (TABLE_NAME). */
export const CONSOLE_TABLE = 'console-test';

export const SEEDED = {
  credits: [1000, 2000],
  hold: 500,
  eventCredit: 100,
  poisonDebit: 50_000,
  pendingCredits: [300, 450, 125],
  /** What the second credit carries: the console's search box finds it by them. */
  searchable: { order: 'console-42', reference: 'inv-console-7' },
} as const;

/** Markup in seeded names and bodies: it must reach the page as text and run nothing. */
export const SEEDED_HTML = '<img src=x onerror="window.__seededHtmlRan=1"><b>Carol & Co</b>';

/** Seeds the stack through its own doors: the HTTP API, the ledger-events queue, the table. */
export async function seedConsole(stack: LocalStack): Promise<ConsoleSeed> {
  const alice = clientFor(stack.base, 'alice');
  const bob = clientFor(stack.base, 'bob');
  const create = async (client: typeof alice, name: string) => {
    const { data } = await client.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', name },
    });
    if (!data) throw new Error('no account');
    return data.id;
  };
  const accountId = await create(alice, 'Alice main');
  const otherId = await create(bob, 'Bob savings');
  await create(clientFor(stack.base, 'carol'), SEEDED_HTML);
  const { deferredId, pendingIds } = await seedDeferred(alice);
  for (const [i, amount] of SEEDED.credits.entries()) {
    const { order, reference } = SEEDED.searchable;
    await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId }, header: key(randomUUID()) },
      body: {
        type: 'credit',
        amount,
        currency: 'EUR',
        ...(i === 1 ? { reference, metadata: { order } } : {}),
      },
    });
  }
  await alice.POST('/v1/accounts/{accountId}/holds', {
    params: { path: { accountId }, header: key(randomUUID()) },
    body: { amount: SEEDED.hold, currency: 'EUR', expiresInSeconds: 3600 },
  });
  await alice.POST('/v1/accounts/{accountId}/monitors', {
    params: { path: { accountId }, header: key(randomUUID()) },
    body: { field: 'available', operator: 'lt', value: 1000, description: 'low funds' },
  });

  const producer = await producerOf(stack.sqsEndpoint);
  const send = (body: unknown) =>
    producer.sqs.send(
      new SendMessageCommand({ QueueUrl: producer.queueUrl, MessageBody: JSON.stringify(body) }),
    );
  const source = 'urn:console-test:pos';
  for (const sequence of [1, 4]) {
    await send(ledgerEvent({ source, subject: accountId, sequence, amount: SEEDED.eventCredit }));
  }
  const poisonDebitId = `debit-${randomUUID()}`;
  await send(
    ledgerEvent({
      id: poisonDebitId,
      source: 'urn:console-test:batch',
      type: 'ledger.debit.v1',
      subject: accountId,
      amount: SEEDED.poisonDebit,
    }),
  );
  const unknownAccountId = randomUUID();
  const unknownAccountEventId = `credit-${randomUUID()}`;
  await send(
    ledgerEvent({
      id: unknownAccountEventId,
      source: 'urn:console-test:batch',
      subject: unknownAccountId,
      // Text a producer chose: the console shows it as text, never as markup.
      metadata: { note: SEEDED_HTML },
    }),
  );

  const dynamo = new DynamoDBClient({
    ...LOCAL_AWS,
    endpoint: `http://127.0.0.1:${stack.dynamoPort}`,
  });
  await createReconcileStore({ client: dynamo, tableName: CONSOLE_TABLE }).recordFinding({
    accountId: otherId,
    check: 'balance',
    expected: 0,
    actual: 700,
    detail: 'seeded by the console test: balance 700 where the journal ends at 0',
    detectedAt: new Date().toISOString(),
  });
  dynamo.destroy();

  await until(
    async () => (await queueDepth(producer.sqs, producer.dlqUrl)) === 2,
    'two dead letters',
  );
  await until(async () => {
    const { data } = await alice.GET('/v1/accounts/{accountId}/journal', {
      params: { path: { accountId } },
    });
    return (data?.items.length ?? 0) === 5;
  }, 'five journal records');
  return {
    producer,
    accountId,
    otherId,
    deferredId,
    pendingIds,
    source,
    poisonDebitId,
    unknownAccountEventId,
    unknownAccountId,
  };
}

/**
 * A deferred account (docs/contract.md §24) and credits into it through the HTTP API: each is
 * accepted as a pending credit, which the stack's folder posts within seconds.
 */
async function seedDeferred(alice: ReturnType<typeof clientFor>) {
  const { data } = await alice.POST('/v1/accounts', {
    params: { header: key(randomUUID()) },
    body: { currency: 'EUR', name: 'Alice deferred', creditIntake: 'deferred' },
  });
  if (!data) throw new Error('no deferred account');
  const pendingIds: string[] = [];
  for (const [i, amount] of SEEDED.pendingCredits.entries()) {
    const { data: entry } = await alice.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId: data.id }, header: key(randomUUID()) },
      body: { type: 'credit', amount, currency: 'EUR', reference: `card-settlement-${i + 1}` },
    });
    if (!entry) throw new Error('no pending credit');
    pendingIds.push(entry.id);
  }
  return { deferredId: data.id, pendingIds };
}

/** Checks every 50 ms (after the check's own time) until `check` holds; fails after `ms`. */
export async function until(check: () => Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}
