import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readEntry } from '../../../functions/domain/accounts/model';
import { csvEncoder, jsonLinesEncoder } from '../../../functions/domain/exports/encode';
import { createExportRunStore } from '../../../functions/dynamodb/exports/run-store';
import { Problem } from '../../../functions/schemas/shared';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/** docs/contract.md §16 "Metadata": limits, fingerprint, and echoes wherever it is read. */
const fixture = useLedgerFixture();
const { api } = fixture;

const credit = (accountId: string, extra: Record<string, unknown>, key?: string) =>
  api.post(
    `/v1/accounts/${accountId}/transactions`,
    { type: 'credit', amount: 10, currency: 'EUR', ...extra },
    key,
  );
const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v']));

describe('metadata limits', () => {
  it.each([
    ['empty', {}],
    ['21 keys', { ...twenty, k20: 'v' }],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a key with a space', { 'a b': 'v' }],
    ['a key with a slash', { 'a/b': 'v' }],
    ['a 501-character value', { k: 'v'.repeat(501) }],
    ['a number value', { k: 1 }],
    ['a nested value', { k: { x: 'y' } }],
    ['an array', ['v']],
    ['a string', 'v'],
  ])('refuses %s with 400 validation_failed, unrecorded', async (_name, metadata) => {
    const account = await api.account();
    const key = randomUUID();
    const res = await credit(account, { metadata }, key);
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(bodyOf(res));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.some((e) => e.path.startsWith('body.metadata'))).toBe(true);
    expect((await credit(account, {}, key)).statusCode).toBe(201);
  });

  it('refuses a key __proto__, which could not be stored as sent', async () => {
    const account = await api.account();
    const res = await api.call('POST', `/v1/accounts/${account}/transactions`, {
      idempotencyKey: randomUUID(),
      rawBody: '{"type":"credit","amount":1,"currency":"EUR","metadata":{"__proto__":"x"}}',
    });
    expect(res.statusCode).toBe(400);
    expect(Problem.parse(bodyOf(res)).errors?.[0]?.path).toBe('body.metadata.__proto__');
  });

  it('accepts 20 keys of 40 characters of A-Z a-z 0-9 _ . - with 500-character (or empty) values', async () => {
    const account = await api.account();
    const keyName = (i: number) => `${String(i).padStart(2, '0')}_.-${'aZ9'.repeat(11)}ab`;
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [keyName(i), i === 0 ? '' : 'x'.repeat(500)]),
    );
    expect(keyName(0)).toHaveLength(40);
    const res = await credit(account, { metadata });
    expect(res.statusCode, res.body).toBe(201);
    expect(bodyOf(res).metadata).toEqual(metadata);
  });

  it('is part of the fingerprint: the same key with other metadata is 422 idempotency_key_reused', async () => {
    const account = await api.account();
    const key = randomUUID();
    expect((await credit(account, { metadata: { a: '1' } }, key)).statusCode).toBe(201);
    const same = await credit(account, { metadata: { a: '1' } }, key);
    expect(same.headers['idempotent-replayed']).toBe('true');
    const other = await credit(account, { metadata: { a: '2' } }, key);
    expect([other.statusCode, Problem.parse(bodyOf(other)).code]).toEqual([
      422,
      'idempotency_key_reused',
    ]);
    const none = await credit(account, {}, key);
    expect(none.statusCode).toBe(422);
  });
});

describe('metadata echoed wherever the movement is read', () => {
  it('credits and debits: the 201, its replay and the listing', async () => {
    const account = await api.account();
    const key = randomUUID();
    const res = await credit(account, { metadata: { order: '1' } }, key);
    expect(bodyOf(res).metadata).toEqual({ order: '1' });
    expect((await credit(account, { metadata: { order: '1' } }, key)).body).toBe(res.body);
    const [entry] = await api.entries(account);
    expect(entry).toMatchObject({ id: bodyOf(res).id, metadata: { order: '1' } });
  });

  it('transfers: the 201, GET and both legs', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    const res = await api.post('/v1/transfers', {
      fromAccountId: a,
      toAccountId: b,
      amount: 5,
      currency: 'EUR',
      metadata: { invoice: 'i-9' },
    });
    expect(bodyOf(res).metadata).toEqual({ invoice: 'i-9' });
    const read = bodyOf(await api.get(`/v1/transfers/${bodyOf(res).id}`));
    expect(read.metadata).toEqual({ invoice: 'i-9' });
    expect((await api.entries(a))[0]?.metadata).toEqual({ invoice: 'i-9' });
    expect((await api.entries(b))[0]?.metadata).toEqual({ invoice: 'i-9' });
  });

  it('holds: the 201, GET, the listing and the capture entry', async () => {
    const account = await api.account(100);
    const res = await api.post(`/v1/accounts/${account}/holds`, {
      amount: 30,
      currency: 'EUR',
      expiresInSeconds: 600,
      metadata: { booking: 'b-3' },
    });
    expect(bodyOf(res).metadata).toEqual({ booking: 'b-3' });
    const id = String(bodyOf(res).id);
    expect(bodyOf(await api.get(`/v1/holds/${id}`)).metadata).toEqual({ booking: 'b-3' });
    const listed = bodyOf(await api.get(`/v1/accounts/${account}/holds`));
    expect((listed.items as Record<string, unknown>[])[0]?.metadata).toEqual({ booking: 'b-3' });
    const captured = await api.post(`/v1/holds/${id}/captures`, {});
    expect(bodyOf(captured).metadata).toEqual({ booking: 'b-3' });
    const [capture] = await api.entries(account);
    expect(capture).toMatchObject({ type: 'capture', metadata: { booking: 'b-3' } });
  });

  it('exports: the CSV metadata column and each JSON Lines line (the listing item verbatim)', async () => {
    const [a, b] = [await api.account(100), await api.account()];
    // Backdated (docs/contract.md §26): its effectiveAt is not its createdAt.
    const late = new Date(Date.now() - 86_400_000).toISOString();
    await credit(a, { metadata: { memo: 'x,"y"' }, effectiveAt: late });
    const split = await api.ledgerTransaction(
      [
        { accountId: a, direction: 'debit', amount: 40 },
        { accountId: b, direction: 'credit', amount: 40 },
      ],
      { metadata: { split: 's-1' } },
    );
    await api.post(`/v1/ledger-transactions/${bodyOf(split).id}/reversals`, {});
    const runs = createExportRunStore({ client: fixture.client, tableName: fixture.tableName });
    const entries = [];
    for await (const page of runs.entryPages(a, new Date().toISOString())) entries.push(...page);
    const listing = (await api.entries(a)).reverse();
    const lines = entries.map((entry) => JSON.parse(jsonLinesEncoder.row(readEntry(entry))));
    expect(lines).toEqual(listing);
    // The funding credit, the credit with metadata, the ledger debit, its reversal.
    expect(lines[1]?.effectiveAt).toBe(late);
    // Metadata is the column before the last, the entry's `effectiveAt` (docs/contract.md §26).
    const csv = entries.map((entry, i) => {
      const row = csvEncoder.row(readEntry(entry));
      expect(row.endsWith(`,${listing[i]?.effectiveAt}\r\n`)).toBe(true);
      return row.replace(/,[^,]*\r\n$/, '\r\n');
    });
    expect(csv[1]?.endsWith(',"{""memo"":""x,\\""y\\""""}"\r\n')).toBe(true);
    expect(csv[2]?.endsWith(',"{""split"":""s-1""}"\r\n')).toBe(true);
    expect(csv[3]?.endsWith(`,ledger_transaction:${bodyOf(split).id},credit,\r\n`)).toBe(true);
  });
});
