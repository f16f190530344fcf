import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditFolder } from '../../functions/domain/intake/posting';
import type { JournalRecord } from '../../functions/domain/journal/model';
import { createPostingStore } from '../../functions/dynamodb/intake/posting-store';
import { localDynamoClient } from '../../local/services/dynamodb/dynamodb-local';
import { dynamoEndpoint } from '../support/dynamo-lease';
import { type JournalTopic, startJournalTopic, startProjector } from '../support/journal/journal';
import {
  creditConcurrently,
  deferredAccount,
  expectJournalPerCredit,
  expectPostedExactly,
} from './support/deferred';
import { ledgerPerFile } from './support/ledger';
import { until } from './support/stacks';

/**
 * SIGKILL of a folder mid-posting (docs/contract.md §24): 120 credits wait in one deferred
 * account, a folder in its own process posts them chunk by chunk and is killed -9 after some
 * chunks but before the last; a fresh folder then finishes. Every credit must be posted exactly
 * once (balance, version, entries, no pending item, gates at 0) and the journal must hold one
 * exact record per credit.
 */
const CREDITS = 120;
const ledger = ledgerPerFile(7, { stream: true });
const CHILD = 'test/faults/support/folder-child.ts';

let topic: JournalTopic;
let stopProjector = async () => {};
const direct = localDynamoClient(dynamoEndpoint());
beforeAll(async () => {
  topic = await startJournalTopic();
  stopProjector = (await startProjector(direct, ledger().tableName, topic)).stop;
});
afterAll(async () => {
  await stopProjector();
  await topic?.stop();
  direct.destroy();
});

/** The folder child, and the last `posted <n>` it printed. */
function startFolder(accountId: string): { child: ChildProcess; posted: () => number } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: dynamoEndpoint(),
      TABLE_NAME: ledger().tableName,
      ACCOUNT_ID: accountId,
      PAUSE_MS: '150',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let posted = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const match of chunk.toString().matchAll(/posted (\d+)/g)) posted = Number(match[1]);
  });
  return { child, posted: () => posted };
}

describe('SIGKILL of the folder mid-posting', () => {
  it('loses nothing and posts nothing twice: a fresh folder finishes exactly', async () => {
    const { app, verify, tableName } = ledger();
    const accountId = await deferredAccount(app, `acct-${randomUUID()}`);
    const credited = await creditConcurrently(app, accountId, {
      prefix: 'kill',
      count: CREDITS,
      callers: 8,
    });
    expect(credited.map((c) => c.status)).toEqual(credited.map(() => 201));
    expect((await verify.money(accountId)).version).toBe(0);

    const folder = startFolder(accountId);
    const exited = new Promise<string | null>((resolve) =>
      folder.child.on('exit', (_code, signal) => resolve(signal)),
    );
    await until(
      'the child folder to post two chunks',
      async () => folder.posted() >= 60,
      30_000,
      5,
    );
    folder.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const atKill = (await verify.money(accountId)).version;
    // Killed mid-posting: some chunks in, some still pending.
    expect(atKill).toBeGreaterThanOrEqual(60);
    expect(atKill).toBeLessThan(CREDITS);

    const fresh = new CreditFolder(createPostingStore({ client: direct, tableName }), {
      clock: () => new Date(),
    });
    expect(await fresh.postAll(accountId)).toMatchObject({
      posted: CREDITS - atKill,
      finished: true,
    });
    await expectPostedExactly(verify, direct, tableName, accountId, credited);

    const money = await verify.money(accountId);
    let records: JournalRecord[] = [];
    await until(
      'the journal to reach the version',
      async () => {
        records = (await verify.journal(accountId)) as unknown as JournalRecord[];
        return records.length === money.version;
      },
      30_000,
    );
    expectJournalPerCredit(records, money, credited);
    console.log(`folder killed after ${atKill} of ${CREDITS} credits posted`);
  });
});
