import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../../client/index';
import { batchCheck } from './batch-check';
import { type Check, CheckFailed, describeAnswer, expectThat, skip } from './check';
import { journalCheck } from './journal-check';

/**
 * Transfers, holds, the export result, ledger transactions with their reversals and closing,
 * and the journal, each through its own routes (docs/deployment.md): a
 * stage whose API Gateway lacks one of them answers its own 404 there, and the check fails.
 */
export function featureChecks(client: LedgerClient, needAccount: () => string): Check[] {
  let holdId: string | undefined;
  return [
    ['a transfer moves money between two accounts', async () => transfer(client, needAccount())],
    [
      'a hold is placed, listed and read',
      async () => {
        holdId = await placeAndRead(client, needAccount());
        return `201 active, listed, GET 200, available −${HOLD_AMOUNT}`;
      },
    ],
    [
      'holds are captured and voided',
      async () => captureAndVoid(client, needAccount(), holdId ?? skip('no hold was placed')),
    ],
    ['the export result route is served', async () => exportResult(client, needAccount())],
    [
      'a ledger transaction is made, read and reversed; an empty account closes',
      async () => ledgerDepth(client, needAccount()),
    ],
    [
      "the journal reaches the account's version; as-of balances answer",
      async () => journalCheck(client, needAccount()),
    ],
    [
      'a batch applies its operations once; it and its operations replay',
      async () => batchCheck(client, needAccount()),
    ],
  ];
}

const HOLD_AMOUNT = 50;
const key = () => ({ 'Idempotency-Key': randomUUID() });
const fail = (message: string): never => {
  throw new CheckFailed(message);
};

async function credit(client: LedgerClient, accountId: string, amount: number) {
  const { response, error } = await client.POST('/v1/accounts/{accountId}/transactions', {
    params: { path: { accountId }, header: key() },
    body: { type: 'credit', amount, currency: 'EUR' },
  });
  expectThat(response.status === 201, `credit answered ${describeAnswer(response, error)}`);
}

async function money(client: LedgerClient, accountId: string) {
  const { data, response } = await client.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  if (response.status !== 200 || !data) throw new CheckFailed(`GET answered ${response.status}`);
  return { balance: data.balance, available: data.available };
}

async function transfer(client: LedgerClient, from: string): Promise<string> {
  await credit(client, from, 300);
  const created = await client.POST('/v1/accounts', {
    params: { header: key() },
    body: { currency: 'EUR', name: `smoke transfer ${new Date().toISOString()}` },
  });
  const to = created.data?.id ?? fail(`second account answered ${created.response.status}`);
  const before = [await money(client, from), await money(client, to)];
  const { data, response, error } = await client.POST('/v1/transfers', {
    params: { header: key() },
    body: { fromAccountId: from, toAccountId: to, amount: 100, currency: 'EUR' },
  });
  expectThat(response.status === 201 && !!data, `answered ${describeAnswer(response, error)}`);
  const read = await client.GET('/v1/transfers/{transferId}', {
    params: { path: { transferId: data.id } },
  });
  expectThat(read.data?.id === data.id, `GET answered ${read.response.status}`);
  const after = [await money(client, from), await money(client, to)];
  const moved = after.map((m, i) => m.balance - (before[i]?.balance ?? Number.NaN));
  expectThat(moved[0] === -100 && moved[1] === 100, `balances moved by ${moved.join(' / ')}`);
  return `201, GET 200, balances −100 / +100`;
}

async function place(client: LedgerClient, accountId: string) {
  const { data, response, error } = await client.POST('/v1/accounts/{accountId}/holds', {
    params: { path: { accountId }, header: key() },
    body: { amount: HOLD_AMOUNT, currency: 'EUR', expiresInSeconds: 600 },
  });
  expectThat(response.status === 201 && !!data, `answered ${describeAnswer(response, error)}`);
  expectThat(data.status === 'active', `status ${data.status}`);
  return data.id;
}

async function placeAndRead(client: LedgerClient, accountId: string): Promise<string> {
  await credit(client, accountId, 300);
  const before = await money(client, accountId);
  const id = await place(client, accountId);
  const after = await money(client, accountId);
  expectThat(
    after.available === before.available - HOLD_AMOUNT && after.balance === before.balance,
    `available moved by ${after.available - before.available}, balance by ${after.balance - before.balance}`,
  );
  const listed = await client.GET('/v1/accounts/{accountId}/holds', {
    params: { path: { accountId }, query: { status: 'active' } },
  });
  expectThat(
    !!listed.data?.items.some((h) => h.id === id),
    `not listed (${listed.response.status})`,
  );
  const read = await client.GET('/v1/holds/{holdId}', { params: { path: { holdId: id } } });
  expectThat(read.data?.status === 'active', `GET answered ${read.response.status}`);
  return id;
}

async function captureAndVoid(client: LedgerClient, accountId: string, holdId: string) {
  const before = await money(client, accountId);
  const captured = await client.POST('/v1/holds/{holdId}/captures', {
    params: { path: { holdId }, header: key() },
    body: { amount: 20 },
  });
  expectThat(
    captured.data?.status === 'captured' && captured.data.capturedAmount === 20,
    `capture answered ${describeAnswer(captured.response, captured.error)}`,
  );
  const after = await money(client, accountId);
  expectThat(
    after.balance === before.balance - 20,
    `balance moved by ${after.balance - before.balance}`,
  );
  const other = await place(client, accountId);
  const voided = await client.POST('/v1/holds/{holdId}/voids', {
    params: { path: { holdId: other }, header: key() },
    body: {},
  });
  expectThat(
    voided.data?.status === 'voided',
    `void answered ${describeAnswer(voided.response, voided.error)}`,
  );
  return '200 captured 20 (balance −20), 200 voided';
}

/** Answered by the service (200, or 409 while the export runs), not by API Gateway's 404. */
async function exportResult(client: LedgerClient, accountId: string): Promise<string> {
  // Enough for the export fee whatever the deployment charges.
  await credit(client, accountId, 1_000_000);
  const task = await client.POST('/v1/accounts/{accountId}/exports', {
    params: { path: { accountId }, header: key() },
    body: { format: 'csv' },
  });
  const taskId = task.data?.id ?? fail(`the export answered ${task.response.status}`);
  const { response, error } = await client.GET('/v1/tasks/{taskId}/result', {
    params: { path: { taskId } },
  });
  expectThat(
    response.status === 200 || (response.status === 409 && error?.code === 'task_not_succeeded'),
    `answered ${describeAnswer(response, error)}`,
  );
  return response.status === 200 ? '200 (the export already finished)' : '409 task_not_succeeded';
}

/** docs/contract.md §16, §17: a 2-leg ledger transaction, its GET, its reversal, a close. */
async function ledgerDepth(client: LedgerClient, payer: string): Promise<string> {
  await credit(client, payer, 300);
  const created = await client.POST('/v1/accounts', {
    params: { header: key() },
    body: { currency: 'EUR', name: `smoke ledger ${new Date().toISOString()}` },
  });
  const payee = created.data?.id ?? fail(`second account answered ${created.response.status}`);
  const made = await client.POST('/v1/ledger-transactions', {
    params: { header: key() },
    body: {
      currency: 'EUR',
      legs: [
        { accountId: payer, direction: 'debit', amount: 30 },
        { accountId: payee, direction: 'credit', amount: 30 },
      ],
    },
  });
  const id = made.data?.id ?? fail(`answered ${describeAnswer(made.response, made.error)}`);
  const path = { ledgerTransactionId: id };
  const read = await client.GET('/v1/ledger-transactions/{ledgerTransactionId}', {
    params: { path },
  });
  expectThat(read.data?.id === id, `GET answered ${read.response.status}`);
  const reversed = await client.POST('/v1/ledger-transactions/{ledgerTransactionId}/reversals', {
    params: { path, header: key() },
    body: {},
  });
  expectThat(
    reversed.response.status === 201,
    `reversal answered ${describeAnswer(reversed.response, reversed.error)}`,
  );
  expectThat((await money(client, payee)).balance === 0, 'the payee kept the money');
  const closed = await client.POST('/v1/accounts/{accountId}/close', {
    params: { path: { accountId: payee }, header: key() },
    body: {},
  });
  expectThat(
    closed.data?.status === 'closed',
    `close answered ${describeAnswer(closed.response, closed.error)}`,
  );
  return '201, GET 200, reversal 201, close 200 closed';
}
