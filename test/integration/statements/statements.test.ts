import { randomUUID } from 'node:crypto';
import {
  BatchWriteItemCommand,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import type { LedgerEntry } from '../../../functions/domain/accounts/model';
import {
  monthCreditsAttribute,
  monthDebitsAttribute,
} from '../../../functions/dynamodb/accounts/effective-history';
import { entryItem } from '../../../functions/dynamodb/accounts/entries';
import { keys } from '../../../functions/dynamodb/table/keys';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * docs/contract.md §26 on DynamoDB Local: backdated movements, statements and effective balances,
 * period closes, and what a statement costs on an account with 8,000 entries.
 */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
const calls: { command: string; scanned?: number }[] = [];

beforeAll(async () => {
  // Its own DynamoDB Local: the 8,000 seeded entries would slow every file beside it.
  ({ client, tableName, drop } = await createTestTable({ own: true }));
  // Every DynamoDB command that leaves the client, with how many items a Query read.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { ScannedCount?: number };
      calls.push({ command: String(context.commandName), scanned: output.ScannedCount });
      return result;
    },
    { step: 'initialize', name: 'countStatementCalls' },
  );
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, idempotencyLocalCache: false }),
    callbackSecrets: staticCallbackSecrets('{}'),
  });
});

afterAll(() => drop());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

function api() {
  const ledger = ledgerApi(app);
  return {
    ...ledger,
    move: (accountId: string, type: 'credit' | 'debit', amount: number, effectiveAt?: string) =>
      ledger.post(`/v1/accounts/${accountId}/transactions`, {
        type,
        amount,
        currency: 'EUR',
        ...(effectiveAt === undefined ? {} : { effectiveAt }),
      }),
    statement: (accountId: string, query: Record<string, string>) =>
      ledger.get(`/v1/accounts/${accountId}/statement`, 'alice', query),
    balanceAt: async (accountId: string, effectiveAt: string) =>
      Number(
        bodyOf(await ledger.get(`/v1/accounts/${accountId}/balances`, 'alice', { effectiveAt }))
          .balance,
      ),
  };
}

describe('backdated movements and statements', () => {
  it('dates entries, sums windows, pages by effective time and chains windows', async () => {
    const ledger = api();
    const id = await ledger.account();
    // Written in this order; effective 40, 10, 25 and 2 days ago, and now.
    expect((await ledger.move(id, 'credit', 1000, ago(40))).statusCode).toBe(201);
    const late = await ledger.move(id, 'credit', 300, ago(10));
    expect(bodyOf(late).effectiveAt).toBe(
      new Date(bodyOf(late).effectiveAt as string).toISOString(),
    );
    expect((await ledger.move(id, 'debit', 200, ago(25))).statusCode).toBe(201);
    expect((await ledger.move(id, 'debit', 50, ago(2))).statusCode).toBe(201);
    expect((await ledger.move(id, 'credit', 7)).statusCode).toBe(201);

    const window = bodyOf(await ledger.statement(id, { from: ago(30), to: ago(5) }));
    expect(window).toMatchObject({
      accountId: id,
      currency: 'EUR',
      openingBalance: 1000,
      totalCredits: 300,
      totalDebits: 200,
      closingBalance: 1100,
      nextCursor: null,
    });
    const items = window.items as { amount: number; type: string; effectiveAt: string }[];
    expect(items.map((i) => [i.type, i.amount])).toEqual([
      ['debit', 200],
      ['credit', 300],
    ]);
    // The window after it opens where this one closed.
    const next = bodyOf(await ledger.statement(id, { from: String(window.to), to: ago(-1 / 24) }));
    expect(next).toMatchObject({ openingBalance: 1100, totalCredits: 7, totalDebits: 50 });
    expect(next.closingBalance).toBe(1057);
    expect(await ledger.balanceAt(id, ago(11))).toBe(800);
    expect(await ledger.balanceAt(id, new Date().toISOString())).toBe(1057);

    // One item per page; totals cover the whole window on every page.
    const first = bodyOf(await ledger.statement(id, { from: ago(45), to: ago(1), limit: '1' }));
    const second = bodyOf(
      await ledger.statement(id, {
        from: ago(45),
        to: ago(1),
        limit: '1',
        cursor: String(first.nextCursor),
      }),
    );
    expect([first.totalCredits, second.totalCredits]).toEqual([1300, 1300]);
    expect((second.items as { amount: number }[])[0]?.amount).toBe(200);
  });

  it('refuses effectiveAt in the future, past the backdate limit, and bad windows', async () => {
    const ledger = api();
    const id = await ledger.account(10);
    const future = new Date(Date.now() + 60_000).toISOString();
    for (const effectiveAt of [future, ago(91)]) {
      const res = await ledger.move(id, 'credit', 1, effectiveAt);
      expect(res.statusCode).toBe(400);
      expect(bodyOf(res).errors).toEqual([expect.objectContaining({ path: 'body.effectiveAt' })]);
    }
    expect((await ledger.statement(id, { from: ago(1), to: ago(2) })).statusCode).toBe(400);
    expect((await ledger.statement(id, { from: ago(400), to: ago(1) })).statusCode).toBe(400);
    expect((await ledger.get(`/v1/accounts/${id}/balances`)).statusCode).toBe(400);
    expect((await ledger.statement(id, { from: ago(2), to: ago(1) })).statusCode).toBe(200);
  });
});

describe('period closes', () => {
  it('freeze the books through an instant, move forward only and replay', async () => {
    const ledger = api();
    const id = await ledger.account();
    await ledger.move(id, 'credit', 500, ago(20));
    const through = ago(10);
    const close = (at: string, key: string = randomUUID()) =>
      ledger.post(`/v1/accounts/${id}/period-closes`, { through: at }, key);
    const closed = await close(through, 'close-1');
    expect(closed.statusCode).toBe(200);
    expect(bodyOf(closed).closedThrough).toBe(through);
    expect((await close(through, 'close-1')).headers?.['idempotent-replayed']).toBe('true');
    const window = { from: ago(30), to: through };
    const before = bodyOf(await ledger.statement(id, window));

    const refused = await ledger.move(id, 'credit', 5, through);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).code).toBe('period_closed');
    expect((await ledger.move(id, 'debit', 5, ago(15))).statusCode).toBe(409);
    const transfer = await ledger.post('/v1/transfers', {
      fromAccountId: await ledger.account(100),
      toAccountId: id,
      amount: 5,
      currency: 'EUR',
      effectiveAt: ago(12),
    });
    expect(bodyOf(transfer).code).toBe('period_closed');
    expect((await ledger.move(id, 'credit', 5, ago(9))).statusCode).toBe(201);
    expect(bodyOf(await ledger.statement(id, window))).toEqual(before);

    expect(bodyOf(await close(ago(11))).code).toBe('period_already_closed');
    expect((await close(new Date(Date.now() + 60_000).toISOString())).statusCode).toBe(400);
    expect((await close(ago(5))).statusCode).toBe(200);
    expect(String(bodyOf(await ledger.get(`/v1/accounts/${id}`)).closedThrough) > through).toBe(
      true,
    );
  });
});

describe('what a statement costs', () => {
  const ENTRIES = 8_000;
  const SPAN_DAYS = 730;

  /** 8,000 entries over two years, written with the entry builder 25 at a time. */
  async function seed(accountId: string): Promise<{ from: number }> {
    const now = Date.now();
    const months = new Map<string, number>();
    const items = Array.from({ length: ENTRIES }, (_, i) => {
      const at = new Date(now - SPAN_DAYS * DAY + Math.floor((i * SPAN_DAYS * DAY) / ENTRIES));
      const iso = at.toISOString();
      const entry: LedgerEntry = {
        id: randomUUID(),
        accountId,
        type: 'credit',
        amount: 1,
        currency: 'EUR',
        origin: 'http',
        createdAt: iso,
        effectiveAt: iso,
      };
      months.set(iso.slice(0, 7), (months.get(iso.slice(0, 7)) ?? 0) + 1);
      return entryItem(tableName, entry).Put?.Item;
    });
    for (let i = 0; i < items.length; i += 25) {
      const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item: Item ?? {} } }));
      await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: batch } }));
    }
    const names: Record<string, string> = { '#balance': 'balance' };
    const values: Record<string, number> = { ':n': ENTRIES };
    const adds = [...months].map(([month, count], m) => {
      names[`#m${m}`] = monthCreditsAttribute(month);
      names[`#d${m}`] = monthDebitsAttribute(month);
      values[`:m${m}`] = count;
      values[`:zero`] = 0;
      return `#m${m} :m${m}, #d${m} :zero`;
    });
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: marshall(keys.account(accountId)),
        UpdateExpression: `SET #balance = #balance + :n ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: marshall(values),
      }),
    );
    return { from: now - 100 * DAY };
  }

  it('reads a 7-day window of 8,000 entries in at most 5 calls plus one per page', async () => {
    const ledger = api();
    const id = await ledger.account();
    const { from } = await seed(id);
    const query = {
      from: new Date(from).toISOString(),
      to: new Date(from + 7 * DAY).toISOString(),
    };
    const perMonth = ENTRIES / (SPAN_DAYS / 30.4);
    const window = (7 * ENTRIES) / SPAN_DAYS;

    let cursor: string | undefined;
    let pages = 0;
    let listed = 0;
    let opening: unknown;
    do {
      calls.length = 0;
      const res = await ledger.statement(id, {
        ...query,
        limit: '40',
        ...(cursor ? { cursor } : {}),
      });
      expect(res.statusCode).toBe(200);
      const body = bodyOf(res);
      pages += 1;
      listed += (body.items as unknown[]).length;
      opening ??= body.openingBalance;
      expect(body.openingBalance).toBe(opening);
      // Each page: the account, the index of the month `from` falls in, the page itself.
      expect(calls.length).toBeLessThanOrEqual(5 + 1);
      // Never the whole history: at most a month of entries and the page.
      const scanned = calls.reduce((sum, c) => sum + (c.scanned ?? 0), 0);
      expect(scanned).toBeLessThan(2 * perMonth + 41);
      cursor = body.nextCursor === null ? undefined : String(body.nextCursor);
    } while (cursor);
    expect(listed).toBeGreaterThanOrEqual(Math.floor(window) - 1);
    expect(pages).toBe(Math.ceil(listed / 40));
    const whole = bodyOf(await ledger.statement(id, query));
    expect(whole.totalCredits).toBe(listed);
    expect(whole.closingBalance).toBe(Number(opening) + listed);
  }, 180_000);
});
