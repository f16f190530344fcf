import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { CreditFolder } from '../../functions/domain/intake/posting';
import { METRICS } from '../../functions/domain/shared/metrics';
import { createPostingStore } from '../../functions/dynamodb/intake/posting-store';
import { createCreditIntakeConsumer } from '../../functions/handlers/credit-intake/consumer';
import { sqsEvent, sqsRecord } from '../../kit/ledger-events';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { dynamoEndpoint } from '../support/dynamo-lease';
import { recordingMetrics } from '../support/fakes/metrics';
import { intakeOf } from '../support/intake/intake';
import { quietRuntime } from '../support/runtime';
import {
  answeredIds,
  type Credited,
  creditConcurrently,
  deferredAccount,
  expectPostedExactly,
  staleReads,
} from './support/deferred';
import { ledgerPerFile, post, postUntilFinal } from './support/ledger';

/**
 * Deferred credits (docs/contract.md §24) under the contention layer, where transactions that
 * meet on an item are cancelled with TransactionConflict as on DynamoDB: hundreds of concurrent
 * HTTP credits into one deferred account are each accepted exactly once (replays answer the
 * same body), several folders on its pending credits converge exactly, and the same
 * `credit-intake` message delivered again and again, at once and after posting, posts nothing
 * twice.
 */
const ledger = ledgerPerFile(11);
/** The table as the folders see it: through the fault proxy and the contention layer. */
const contended = () => localDynamoClient(ledger().proxy.endpoint);
const direct = localDynamoClient(dynamoEndpoint());
afterAll(() => direct.destroy());

const CREDITS = 150;
/** How stale each folder's reads are when it posts from them, in ms. */
const STALENESS_MS = [0, 40, 400, 1_500];
const FOLDERS = STALENESS_MS.length;
let account = '';
let credited: Credited[] = [];

describe('deferred credits under real contention', () => {
  it('accepts every concurrent credit into one deferred account exactly once', async () => {
    const { app, verify, tableName, contention } = ledger();
    account = await deferredAccount(app, `acct-${randomUUID()}`);
    const conflictsBefore = contention.stats.conflicts;
    // Each credit raced by a duplicate of itself (same key, same body) from another caller.
    const [first, second] = await Promise.all([
      creditConcurrently(app, account, { prefix: 'in', count: CREDITS, callers: 12 }),
      creditConcurrently(app, account, { prefix: 'in', count: CREDITS, callers: 4 }),
    ]);
    credited = first;
    expect(first.map((c) => c.status)).toEqual(first.map(() => 201));
    const byKey = new Map(first.map((c) => [c.key, c.body]));
    for (const dup of second) expect(dup.body).toBe(byKey.get(dup.key));
    expect(new Set(answeredIds(first)).size).toBe(CREDITS);

    // Nothing posted yet, nothing lost: one pending credit per answer, counted once.
    expect(await verify.money(account)).toMatchObject({ balance: 0, version: 0 });
    const intake = await intakeOf(direct, tableName, account);
    expect(intake.pending).toHaveLength(CREDITS);
    expect({ counted: intake.counted, accepted: intake.accepted }).toEqual({
      counted: CREDITS,
      accepted: CREDITS,
    });
    const [sample] = first;
    if (!sample) throw new Error('no credit');
    const id = (JSON.parse(sample.body) as { id: string }).id;
    expect(await verify.read(`/v1/accounts/${account}/transactions/${id}`)).toMatchObject({
      status: 'pending',
    });

    // Replays with the same key, later, answer the same body and accept nothing more.
    for (const c of first.slice(0, 20)) {
      const { result } = await postUntilFinal(app, `/v1/accounts/${account}/transactions`, c.key, {
        type: 'credit',
        amount: c.amount,
        currency: 'EUR',
        reference: c.key,
      });
      expect([result.statusCode, result.body]).toEqual([201, c.body]);
    }
    expect((await intakeOf(direct, tableName, account)).accepted).toBe(CREDITS);
    const conflicts = contention.stats.conflicts - conflictsBefore;
    console.log(`intake: ${conflicts} conflicts`);
    // The gates were contended for real: the layer cancelled intake transactions.
    expect(conflicts).toBeGreaterThan(0);
  });

  it(`${FOLDERS} folders on ${CREDITS} pending credits converge exactly`, async () => {
    const { verify, tableName, contention } = ledger();
    const client = contended();
    const conflictsBefore = contention.stats.conflicts;
    const runs = await Promise.all(
      // Started at once, as redelivered messages are, all but the first posting from stale
      // reads: mid-run (their transactions meet on the account item) and after the others posted
      // everything they read (nothing cancels them then: the items must say "gone").
      STALENESS_MS.map(async (staleMs) => {
        const store = staleReads(createPostingStore({ client, tableName }), staleMs);
        return new CreditFolder(store, { clock: () => new Date() }).postAll(account);
      }),
    );
    client.destroy();
    const conflicts = contention.stats.conflicts - conflictsBefore;
    console.log(`folders posted ${runs.map((r) => r.posted).join(' + ')}; ${conflicts} conflicts`);
    expect(runs.reduce((sum, r) => sum + r.posted, 0)).toBe(CREDITS);
    expect(runs.every((r) => r.finished)).toBe(true);
    // The folders met for real: the layer cancelled some of their transactions.
    expect(conflicts).toBeGreaterThan(0);
    await expectPostedExactly(verify, direct, tableName, account, credited);
  });

  it('a credit-intake message delivered again and again posts nothing twice', async () => {
    const { app, verify, tableName } = ledger();
    const accountId = await deferredAccount(app, `acct-${randomUUID()}`);
    const credits = await creditConcurrently(app, accountId, {
      prefix: 'redelivered',
      count: 45,
      callers: 6,
    });
    const client = contended();
    const metrics = recordingMetrics();
    // One consumer per container, as Lambda runs redelivered batches; containers' reads stall,
    // so the late ones post from reads the others have overtaken.
    const container = (i: number) =>
      createCreditIntakeConsumer({
        ...quietRuntime(),
        metrics,
        folder: new CreditFolder(
          staleReads(createPostingStore({ client, tableName }), STALENESS_MS[i] ?? 0),
          {
            clock: () => new Date(),
          },
        ),
        // Only an unfinished run would queue its account again; none may be unfinished here.
        queue: { notify: async (ids) => ids },
        intakeDue: { marks: async () => undefined, clear: async () => undefined },
      });
    const containers = STALENESS_MS.map((_, i) => container(i));
    const message = sqsRecord({ accountId });
    // Three times in one batch, and in four batches at once (redelivery after a timeout).
    const batches = await Promise.all(
      containers.map((consume) => consume(sqsEvent(message, message, message))),
    );
    for (const batch of batches) expect(batch.batchItemFailures).toEqual([]);
    await expectPostedExactly(verify, direct, tableName, accountId, credits);
    // After posting: delivered twice more, it finds nothing.
    for (let i = 0; i < 2; i++) {
      expect((await container(i)(sqsEvent(message))).batchItemFailures).toEqual([]);
    }
    await expectPostedExactly(verify, direct, tableName, accountId, credits);
    expect(metrics.counts.get(METRICS.creditsPosted)).toBe(45);
    client.destroy();
    // A replay of a posted credit answers the same body and writes nothing.
    const [c] = credits;
    if (!c) throw new Error('no credit');
    const replay = await post(app, `/v1/accounts/${accountId}/transactions`, c.key, {
      type: 'credit',
      amount: c.amount,
      currency: 'EUR',
      reference: c.key,
    });
    expect([replay.statusCode, replay.body]).toEqual([201, c.body]);
    await expectPostedExactly(verify, direct, tableName, accountId, credits);
  });
});
