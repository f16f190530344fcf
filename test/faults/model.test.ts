import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { expect, it } from 'vitest';
import { CreditFolder } from '../../functions/domain/intake/posting';
import { silentLog } from '../../functions/domain/shared/log';
import { createPostingStore } from '../../functions/dynamodb/intake/posting-store';
import { createJournalStore } from '../../functions/dynamodb/journal/store';
import { DYNAMODB_TIMEOUTS } from '../../functions/dynamodb/table/client';
import { composeReconciler } from '../../functions/handlers/reconciler/compose';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { dynamoEndpoint } from '../support/dynamo-lease';
import { startJournalTopic, startProjector } from '../support/journal/journal';
import { assertWithinBudget } from '../support/model/budget';
import { type Action, planArb, runPlan } from '../support/model/model-driver';
import { deferredAccount } from './support/deferred';
import { createAccount, ledgerPerFile, postUntilFinal } from './support/ledger';

/**
 * Model-based, under faults: random rounds of credits, debits, transfers, holds, captures,
 * voids, ledger transactions, reversals (racing ones included), closings, concurrent
 * duplicates, later replays and key reuse run against DynamoDB Local through the fault proxy,
 * which loses a tenth of the transactions' answers after DynamoDB decided,
 * each round concurrently, on accounts one of which may overdraw and one of which takes its
 * credits deferred (§24: the folder runs after every round, through the same faults); after
 * every round (before and after the folder) the service
 * must agree with the pure reference model (test/support/model/ledger-model.ts, driven by
 * test/support/model/model-driver.ts) on every outcome, every balance and available balance and, at
 * the end, every entry, reversedAmount, status, replayed body and money conservation.
 */
const ledger = ledgerPerFile(42, { stream: true });
/** The share of TransactWriteItems answers the fault proxy drops during the random run. */
const LOST_RESPONSES = 0.1;

const EXACT_COVER: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 0, amount: 100 } }],
  [
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'new', command: { kind: 'debit', account: 0, amount: 100 } },
    { kind: 'duplicate', of: 0 },
  ],
  [{ kind: 'replay', of: 1 }],
];

/** Racing reversals of one credit, racing a debit that spends what they move back. */
const RACING_REVERSALS: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 1, amount: 100 } }],
  [
    { kind: 'reverse', of: 0, percent: 40, copies: 3 },
    { kind: 'new', command: { kind: 'debit', account: 1, amount: 200 } },
  ],
  [{ kind: 'reverse', of: 0, percent: undefined, copies: 2 }],
];

/**
 * Key reuse of a ledger transaction's reversal (refused insufficient_funds: the credited
 * account spent what it would give back). Its route takes no amount, so the reuse must differ
 * on the wire (another reference): a toggled amount the request never carried was replayed by
 * the service while the model expected 422 idempotency_key_reused.
 */
const REUSED_WHOLE_REVERSAL: Action[][] = [
  [{ kind: 'new', command: { kind: 'credit', account: 0, amount: 300 } }],
  [
    {
      kind: 'new',
      command: {
        kind: 'ledger',
        legs: [
          { account: 0, direction: 'debit', amount: 100 },
          { account: 2, direction: 'credit', amount: 100 },
        ],
      },
    },
  ],
  [{ kind: 'new', command: { kind: 'debit', account: 2, amount: 100 } }],
  [{ kind: 'reverse', of: 1, percent: 40, copies: 1 }],
  [{ kind: 'reuse', of: 3 }],
];

/**
 * A deferred account (docs/contract.md §24, account 3): a credit into it is pending, so a debit
 * in the same round sees none of it; after the folder, a debit may spend it; a transfer and a
 * ledger leg into it wait too, and closing while one waits is account_not_empty.
 */
const DEFERRED: Action[][] = [
  [
    { kind: 'new', command: { kind: 'credit', account: 0, amount: 300 } },
    { kind: 'new', command: { kind: 'credit', account: 3, amount: 100 } },
    { kind: 'new', command: { kind: 'debit', account: 3, amount: 100 } },
  ],
  [
    { kind: 'new', command: { kind: 'debit', account: 3, amount: 100 } },
    { kind: 'new', command: { kind: 'transfer', account: 0, to: 3, amount: 50 } },
    {
      kind: 'new',
      command: {
        kind: 'ledger',
        legs: [
          { account: 0, direction: 'debit', amount: 20 },
          { account: 3, direction: 'credit', amount: 20 },
        ],
      },
    },
    { kind: 'new', command: { kind: 'close', account: 3 } },
  ],
  [{ kind: 'reverse', of: 1, percent: 40, copies: 2 }],
];

/** Every account the random run created, for the reconciliation pass after it. */
const accounts: string[] = [];

it('agrees with the reference model on outcomes, balances, entries and replayed bodies', async () => {
  const { app, verify, tableName, proxy } = ledger();
  const client = localDynamoClient(proxy.endpoint, DYNAMODB_TIMEOUTS);
  const folder = new CreditFolder(createPostingStore({ client, tableName }), {
    clock: () => new Date(),
  });
  const env = {
    send: async (path: string, key: string, body: unknown) =>
      (await postUntilFinal(app, path, key, body)).result,
    account: async (overdraftLimit: number, deferred: boolean) => {
      const id = deferred
        ? await deferredAccount(app, `acct-${randomUUID()}`)
        : await createAccount(app, 'EUR', overdraftLimit);
      accounts.push(id);
      return id;
    },
    verify,
    overdraft: [0, 150, 0, 0],
    deferred: [false, false, false, true],
    // The folder through the same faults: its answers may be lost too.
    fold: async (ids: readonly string[]) => {
      for (const id of ids) expect((await folder.postAll(id)).finished).toBe(true);
    },
    answersMayBeLost: true,
  };
  // A tenth of the transactions commit (or are cancelled) with their answer lost on the way
  // back: the SDK's own retry, then the caller's, must still give each intent one effect.
  ledger().proxy.loseTransactResponses(LOST_RESPONSES);
  await assertWithinBudget(planArb(env.overdraft.length), (plan) => runPlan(env, plan), {
    numRuns: 20,
    // Always run too: the cover boundary (a debit of exactly the balance, raced by a second),
    // reversals racing each other and a debit on an account that may overdraw, and key reuse
    // of a ledger transaction's refused reversal.
    examples: [[EXACT_COVER], [RACING_REVERSALS], [REUSED_WHOLE_REVERSAL], [DEFERRED]],
  });
  ledger().proxy.loseTransactResponses(0);
  client.destroy();
  // Concurrent requests on one account met real contention (the layer cancelled some), and
  // answers were lost after DynamoDB had decided.
  expect(ledger().contention.stats.conflicts).toBeGreaterThan(0);
  expect(ledger().proxy.stats.lostResponses).toBeGreaterThan(0);
});

it('leaves books the reconciler finds nothing wrong with (docs/contract.md §19)', async () => {
  const { tableName, verify } = ledger();
  expect(accounts.length).toBeGreaterThan(0);
  const dynamo = localDynamoClient(dynamoEndpoint());
  const topic = await startJournalTopic();
  const projector = await startProjector(dynamo, tableName, topic);
  const journal = createJournalStore({ client: dynamo, tableName });
  try {
    // The journal of every account the run touched, projected from the table's stream.
    const deadline = Date.now() + 30_000;
    let changed = 0;
    for (const id of accounts) {
      const { version } = await verify.money(id);
      if (version > 0) changed++;
      for (;;) {
        const head = await journal.readHead(id);
        if (version === 0 || head?.lastSequence === version) break;
        if (Date.now() > deadline) throw new Error(`journal of ${id} did not reach ${version}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // docs/contract.md §27, reproduced from the wire with node:crypto and canonicalize alone.
    let hashed = 0;
    for (const id of accounts) {
      const records = await verify.journal(id);
      expect(independentHashes(records), `journal of ${id}`).toEqual(records.map((r) => r.hash));
      expect(records.filter((r) => r.chainStart === true).map((r) => r.sequence)).toEqual(
        records.length > 0 ? [1] : [],
      );
      hashed += records.length;
    }
    expect(hashed).toBeGreaterThanOrEqual(changed);
    const report = await composeReconciler({ dynamo, config: { tableName }, log: silentLog })();
    expect(report.findings).toEqual([]);
    // Every account that changed was checked, each record of its journal once.
    expect(report.accounts).toBe(changed);
    expect(changed).toBeGreaterThan(0);
    expect(report.records).toBeGreaterThanOrEqual(changed);
  } finally {
    await projector.stop();
    await topic.stop();
    dynamo.destroy();
  }
});

/**
 * An independent implementation of the journal's hash chain: hex SHA-256 of the previous hash
 * (64 zeros where `chainStart` is set) followed by the record without `hash` in RFC 8785 JSON.
 */
function independentHashes(records: readonly Record<string, unknown>[]): string[] {
  let previous = '0'.repeat(64);
  return records.map(({ hash: _hash, ...content }) => {
    if (content.chainStart === true) previous = '0'.repeat(64);
    previous = createHash('sha256')
      .update(`${previous}${canonicalize(content)}`)
      .digest('hex');
    return previous;
  });
}
