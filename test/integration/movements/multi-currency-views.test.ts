import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportWorker } from '../../../functions/domain/exports/worker';
import { createExportRunStore } from '../../../functions/dynamodb/exports/run-store';
import { seedExecution } from '../../support/exports/exports';
import { expectExactJournal } from '../../support/journal/journal';
import { type JournalFixture, startJournalFixture } from '../../support/journal/journal-fixture';
import { bodyOf } from '../../support/ledger-api';
import { type Direction, leg } from '../../support/legs';
import { quietRuntime } from '../../support/runtime';

/**
 * docs/contract.md §35 "everything else works per account, hence per currency": a USD→EUR
 * exchange applied inside an `independent` batch (§25), among EUR postings of the same account
 * and a USD credit sent to it by mistake; then the EUR account's statement (§26), journal (§15,
 * projected for real) and CSV export (§12, the export worker over the table) show its EUR
 * amounts only, with totals that add up.
 */
let fixture: JournalFixture;
beforeAll(async () => {
  fixture = await startJournalFixture();
});
afterAll(() => fixture?.close());

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

const posting = (accountId: string, type: Direction, amount: number, currency: string) => ({
  key: randomUUID(),
  op: type,
  accountId,
  body: { type, amount, currency, reference: `${type} ${amount} ${currency}` },
});

/** Sorted by id, to compare lists whose order is not the point. */
const byId = <T extends { readonly id: string }>(list: readonly T[]): T[] =>
  [...list].sort((a, b) => a.id.localeCompare(b.id));

interface StatementItem {
  readonly id: string;
  readonly type: string;
  readonly amount: number;
  readonly currency: string;
}

/** The export worker's CSV of an account, as the object it writes (header, then one row each). */
async function exportCsv(accountId: string): Promise<Record<string, string>[]> {
  const { client, tableName } = fixture;
  const ids = await seedExecution(client, tableName, accountId, {
    deadline: new Date(Date.now() + HOUR),
  });
  const chunks: Uint8Array[] = [];
  const worker = new ExportWorker({
    ...quietRuntime(),
    runs: createExportRunStore({ client, tableName }),
    objects: {
      open: () => ({
        write: async (chunk) => void chunks.push(chunk),
        complete: async () => {},
        abort: async () => {},
      }),
      delete: async () => {},
    },
    reporter: { report: async () => 'applied' },
  });
  const job = {
    ...ids,
    accountId,
    format: 'csv' as const,
    callbackPath: '/v1/callbacks/export-worker',
  };
  const outcome = await worker.run(job, { leaseMs: 60_000, giveUpMs: 50_000, finalAttempt: true });
  expect(outcome).toMatchObject({ kind: 'succeeded', result: { rows: 5 } });
  const [header = '', ...rows] = Buffer.concat(chunks)
    .toString('utf8')
    .split('\r\n')
    .filter(Boolean);
  const columns = header.split(',');
  // No cell here holds a comma or a quote (references are `credit 300 EUR` and the like).
  return rows.map((row) => Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell])));
}

describe('an exchange in an independent batch, seen from the EUR account', () => {
  it('applies, and the statement, journal and CSV export show EUR amounts only', async () => {
    const { api } = fixture;
    const customerUsd = await api.account(10_000, 'USD');
    const customerEur = await api.account(0, 'EUR');
    const liquidityUsd = await api.account(0, 'USD');
    const liquidityEur = await api.account(50_000, 'EUR');
    const from = at(-HOUR);
    const legs = [
      leg(customerUsd, 'debit', 10_000),
      leg(liquidityUsd, 'credit', 10_000),
      leg(liquidityEur, 'debit', 9_213, 'EUR'),
      leg(customerEur, 'credit', 9_213, 'EUR'),
    ];
    const operations = [
      posting(customerEur, 'credit', 300, 'EUR'),
      // The wrong currency for this account: refused alone, never coalesced with its neighbours.
      posting(customerEur, 'credit', 777, 'USD'),
      posting(customerEur, 'credit', 200, 'EUR'),
      {
        key: randomUUID(),
        op: 'ledger_transaction',
        // USD is the default of the legs without a currency; the EUR legs name their own.
        body: {
          currency: 'USD',
          legs,
          rates: [{ base: 'USD', quote: 'EUR', rate: '0.9213' }],
          reference: 'fx',
        },
      },
      posting(customerEur, 'debit', 1_000, 'EUR'),
      posting(customerEur, 'debit', 13, 'EUR'),
    ];
    const res = await api.post('/v1/batches', { mode: 'independent', operations });
    expect(res.statusCode, res.body).toBe(200);
    const results = bodyOf(res).results as { status: number; body: Record<string, unknown> }[];
    expect(results.map((r) => r.status)).toEqual([201, 422, 201, 201, 201, 201]);
    expect(results[1]?.body.code).toBe('currency_mismatch');
    const exchange = results[3]?.body ?? {};
    expect(exchange).toMatchObject({ currency: 'USD', legs });

    expect(await api.money(customerEur)).toEqual({ balance: 8_700, available: 8_700 });
    expect(await api.money(customerUsd)).toEqual({ balance: 0, available: 0 });
    expect(await api.money(liquidityUsd)).toEqual({ balance: 10_000, available: 10_000 });
    expect(await api.money(liquidityEur)).toEqual({ balance: 40_787, available: 40_787 });

    // The journal, in commit order: one record per EUR entry, its deltas the EUR amounts.
    const records = await api.caughtUp(customerEur);
    expectExactJournal(records, { balance: 8_700, available: 8_700, version: 5 });
    expect(records.map((r) => [r.kind, r.balanceDelta, r.balanceAfter])).toEqual([
      ['credit', 300, 300],
      ['credit', 200, 500],
      ['ledger_credit', 9_213, 9_713],
      ['debit', -1_000, 8_713],
      ['debit', -13, 8_700],
    ]);
    expect(records[2]?.ledgerTransactionId).toBe(exchange.id);
    // What the statement and the export must list: these entries, each in EUR, nothing else.
    const entries = byId(
      records.map((r) => ({
        id: String(r.entryId),
        type: r.kind,
        amount: Math.abs(r.balanceDelta),
        currency: 'EUR',
      })),
    );

    // The statement: the same entries and totals that add up to the balance. Compared by id:
    // the batch gives all of them one time, and order is not what this test is about.
    const statementRes = await api.get(`/v1/accounts/${customerEur}/statement`, 'alice', {
      from,
      to: at(HOUR),
    });
    expect(statementRes.statusCode, statementRes.body).toBe(200);
    const statement = bodyOf(statementRes);
    expect(statement).toMatchObject({
      accountId: customerEur,
      currency: 'EUR',
      openingBalance: 0,
      totalCredits: 9_713,
      totalDebits: 1_013,
      closingBalance: 8_700,
      nextCursor: null,
    });
    const items = statement.items as StatementItem[];
    expect(
      byId(items.map(({ id, type, amount, currency }) => ({ id, type, amount, currency }))),
    ).toEqual(entries);
    expect(items.find((i) => i.type === 'ledger_credit')).toMatchObject({
      ledgerTransactionId: exchange.id,
      reference: 'fx',
    });

    // The CSV export: the same rows, every one in EUR, summing to the balance.
    const csv = await exportCsv(customerEur);
    const rows = csv.map((r) => ({
      id: String(r.id),
      type: String(r.type),
      amount: Number(r.amount),
      currency: String(r.currency),
    }));
    expect(byId(rows)).toEqual(entries);
    const net = rows.reduce((sum, r) => sum + (r.type.endsWith('debit') ? -r.amount : r.amount), 0);
    expect(net).toBe(8_700);
  });
});
