import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig } from '../../support/config';
import { bodyOf, ledgerApi } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §26 over HTTP, movement by movement: credits, debits, transfers and ledger
 * transactions take `effectiveAt` (default: the commit's time), within now + 5 s and
 * BACKDATE_LIMIT_DAYS back (edges to the millisecond on a fixed clock), fingerprinted only
 * when given, and refused with 409 period_closed at or before any of their accounts'
 * closedThrough (recorded, replayed, nothing moved).
 */

let now = new Date();
const fixture = useLedgerFixture({ clock: () => now });
const { api } = fixture;
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
/** The same instant written with a +02:00 offset. */
const plusTwo = (iso: string) =>
  new Date(new Date(iso).getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');

/** A stored key replays while it is retained (§36): a retention long enough for "days later". */
const retainedApi = () =>
  ledgerApi(
    composeHttpHandler({
      dynamo: fixture.client,
      config: testConfig({ tableName: fixture.tableName, idempotencyRetentionSeconds: 864_000 }),
      callbackSecrets: staticCallbackSecrets('{}'),
      clock: () => now,
    }),
  );

type Kind = 'credit' | 'debit' | 'transfer' | 'ledger transaction';
const KINDS: Kind[] = ['credit', 'debit', 'transfer', 'ledger transaction'];

/** One movement of `kind` from `a` (to `b` for two accounts), with `effectiveAt` when given. */
function move(
  kind: Kind,
  a: string,
  b: string,
  effectiveAt?: string,
  key = randomUUID(),
  via: ReturnType<typeof ledgerApi> = api,
) {
  const dated = { currency: 'EUR', ...(effectiveAt === undefined ? {} : { effectiveAt }) };
  switch (kind) {
    case 'credit':
    case 'debit':
      return via.post(`/v1/accounts/${a}/transactions`, { type: kind, amount: 10, ...dated }, key);
    case 'transfer':
      return via.post(
        '/v1/transfers',
        { fromAccountId: a, toAccountId: b, amount: 10, ...dated },
        key,
      );
    case 'ledger transaction':
      return via.post(
        '/v1/ledger-transactions',
        {
          legs: [
            { accountId: a, direction: 'debit', amount: 10 },
            { accountId: b, direction: 'credit', amount: 10 },
          ],
          ...dated,
        },
        key,
      );
  }
}

/** `[type, effectiveAt]` of an account's entries, sorted (one fixed clock: createdAt ties). */
const effectiveOf = async (accountId: string) =>
  (await api.entries(accountId)).map((e) => [String(e.type), String(e.effectiveAt)]).sort();

describe('effectiveAt on every movement (docs/contract.md §26)', () => {
  it('is taken with an offset and shown in UTC with milliseconds on entries, transfers, transactions', async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const given = at(-3 * DAY + 123);
    for (const kind of KINDS) {
      const res = await move(kind, a, b, plusTwo(given));
      expect(res.statusCode, res.body).toBe(201);
      expect(bodyOf(res).effectiveAt).toBe(given);
      expect(bodyOf(res).createdAt).toBe(now.toISOString());
      const read =
        kind === 'transfer'
          ? await api.get(`/v1/transfers/${bodyOf(res).id}`)
          : kind === 'ledger transaction'
            ? await api.get(`/v1/ledger-transactions/${bodyOf(res).id}`)
            : undefined;
      if (read) expect(bodyOf(read).effectiveAt).toBe(given);
    }
    // Both sides of the transfer and of the ledger transaction carry it; the funding credit
    // counts at its commit.
    expect(await effectiveOf(a)).toEqual([
      ['credit', given],
      ['credit', now.toISOString()],
      ['debit', given],
      ['ledger_debit', given],
      ['transfer_out', given],
    ]);
    expect(await effectiveOf(b)).toEqual([
      ['ledger_credit', given],
      ['transfer_in', given],
    ]);
  });

  it("defaults to the commit's own time on every kind", async () => {
    const [a, b] = [await api.account(1_000), await api.account()];
    for (const kind of KINDS) {
      const res = await move(kind, a, b);
      expect(res.statusCode, res.body).toBe(201);
      expect(bodyOf(res).effectiveAt).toBe(now.toISOString());
    }
    const entries = [...(await api.entries(a)), ...(await api.entries(b))];
    expect(entries).toHaveLength(7);
    for (const entry of entries) expect(entry.effectiveAt).toBe(entry.createdAt);
  });

  it.each(KINDS)('%s: 5 s ahead is taken, 1 ms more is 400 and not recorded', async (kind) => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const key = randomUUID();
    const ahead = await move(kind, a, b, at(5_001), key);
    expect(ahead.statusCode).toBe(400);
    expect(bodyOf(ahead)).toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'body.effectiveAt' })],
    });
    expect(await api.money(a)).toEqual({ balance: 1_000, available: 1_000 });
    // Not recorded: the corrected retry with the same key goes ahead.
    const edge = await move(kind, a, b, at(5_000), key);
    expect(edge.statusCode, edge.body).toBe(201);
    expect(bodyOf(edge).effectiveAt).toBe(at(5_000));
  });

  it.each(KINDS)('%s: 90 days back is taken, 1 ms more is 400 and not recorded', async (kind) => {
    const [a, b] = [await api.account(1_000), await api.account()];
    const key = randomUUID();
    const old = await move(kind, a, b, at(-90 * DAY - 1), key);
    expect(old.statusCode).toBe(400);
    expect(bodyOf(old).errors).toEqual([expect.objectContaining({ path: 'body.effectiveAt' })]);
    const edge = await move(kind, a, b, at(-90 * DAY), key);
    expect(edge.statusCode, edge.body).toBe(201);
    expect(bodyOf(edge).effectiveAt).toBe(at(-90 * DAY));
  });

  it.each(KINDS)(
    '%s: a retry days later replays though its effectiveAt aged past the limit (§31)',
    async (kind) => {
      const retained = retainedApi();
      const [a, b] = [await api.account(1_000), await api.account()];
      const key = randomUUID();
      const effectiveAt = at(-89 * DAY);
      const first = await move(kind, a, b, effectiveAt, key, retained);
      expect(first.statusCode, first.body).toBe(201);
      now = new Date(now.getTime() + 2 * DAY);
      const again = await move(kind, a, b, effectiveAt, key, retained);
      expect([again.statusCode, again.headers?.['idempotent-replayed']]).toEqual([201, 'true']);
      expect(again.body).toBe(first.body);
      // The limit still holds for a key never used.
      const fresh = await move(kind, a, b, effectiveAt, randomUUID(), retained);
      expect(bodyOf(fresh)).toMatchObject({ code: 'validation_failed' });
      expect(await api.money(a)).toEqual({
        balance: kind === 'credit' ? 1_010 : 990,
        available: kind === 'credit' ? 1_010 : 990,
      });
    },
  );

  it('follows BACKDATE_LIMIT_DAYS, and refuses an instant without an offset', async () => {
    const tenDays = ledgerApi(
      composeHttpHandler({
        dynamo: fixture.client,
        config: testConfig({ tableName: fixture.tableName, backdateLimitDays: 10 }),
        callbackSecrets: staticCallbackSecrets('{}'),
        clock: () => now,
      }),
    );
    const a = await api.account();
    const credit = (effectiveAt: string) => ({
      type: 'credit',
      amount: 1,
      currency: 'EUR',
      effectiveAt,
    });
    const path = `/v1/accounts/${a}/transactions`;
    expect((await tenDays.post(path, credit(at(-10 * DAY - 1)))).statusCode).toBe(400);
    expect((await tenDays.post(path, credit(at(-10 * DAY)))).statusCode).toBe(201);
    expect((await api.post(path, credit(at(-10 * DAY - 1)))).statusCode).toBe(201);
    const bare = await api.post(path, credit(at(-DAY).replace('Z', '')));
    expect(bodyOf(bare)).toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: expect.stringMatching(/effectiveAt$/) })],
    });
  });

  it('is part of the fingerprint only when given: the body is hashed as received', async () => {
    const a = await api.account();
    const path = `/v1/accounts/${a}/transactions`;
    const body = { type: 'credit', amount: 5, currency: 'EUR' };
    const key = randomUUID();
    const first = await api.post(path, body, key);
    expect(first.statusCode).toBe(201);
    expect((await api.post(path, body, key)).headers?.['idempotent-replayed']).toBe('true');
    // The default it got, given explicitly, is another body.
    const explicit = await api.post(path, { ...body, effectiveAt: bodyOf(first).effectiveAt }, key);
    expect(bodyOf(explicit).code).toBe('idempotency_key_reused');
    const dated = { ...body, effectiveAt: at(-DAY) };
    const other = randomUUID();
    expect((await api.post(path, dated, other)).statusCode).toBe(201);
    expect((await api.post(path, dated, other)).headers?.['idempotent-replayed']).toBe('true');
    const moved = await api.post(path, { ...dated, effectiveAt: at(-2 * DAY) }, other);
    expect(bodyOf(moved).code).toBe('idempotency_key_reused');
  });
});

type Closed = [Kind, 'a' | 'b'];
const CLOSED: Closed[] = [
  ['credit', 'a'],
  ['debit', 'a'],
  ['transfer', 'a'],
  ['transfer', 'b'],
  ['ledger transaction', 'a'],
  ['ledger transaction', 'b'],
];

describe('closed periods (docs/contract.md §26)', () => {
  const close = async (accountId: string, through: string) => {
    const res = await api.post(`/v1/accounts/${accountId}/period-closes`, { through });
    expect(res.statusCode, res.body).toBe(200);
  };

  it.each(CLOSED)(
    '%s with account %s closed: 409 period_closed at closedThrough, recorded',
    async (kind, which) => {
      const [a, b] = [await api.account(1_000), await api.account(1_000)];
      const through = at(-5 * DAY);
      await close(which === 'a' ? a : b, through);
      const key = randomUUID();
      const refused = await move(kind, a, b, through, key);
      expect(refused.statusCode).toBe(409);
      expect(bodyOf(refused).code).toBe('period_closed');
      expect((await move(kind, a, b, at(-6 * DAY))).statusCode).toBe(409);
      // Recorded: the same key replays it, even with the period's end now past.
      const again = await move(kind, a, b, through, key);
      expect([again.statusCode, again.headers?.['idempotent-replayed']]).toEqual([409, 'true']);
      expect(again.body).toBe(refused.body);
      for (const id of [a, b])
        expect(await api.money(id)).toEqual({ balance: 1_000, available: 1_000 });
      // 1 ms after closedThrough counts again; so does a movement without effectiveAt.
      expect((await move(kind, a, b, at(-5 * DAY + 1))).statusCode).toBe(201);
      expect((await move(kind, a, b)).statusCode).toBe(201);
    },
  );

  it('comes after account_closed and before insufficient_funds', async () => {
    const empty = await api.account();
    await close(empty, at(-5 * DAY));
    expect((await move('debit', empty, empty, at(-6 * DAY))).statusCode).toBe(409);
    expect(bodyOf(await move('debit', empty, empty, at(-6 * DAY))).code).toBe('period_closed');
    expect(bodyOf(await move('debit', empty, empty)).code).toBe('insufficient_funds');
    const shut = await api.post(`/v1/accounts/${empty}/close`, {});
    expect(shut.statusCode, shut.body).toBe(200);
    expect(bodyOf(await move('credit', empty, empty, at(-6 * DAY))).code).toBe('account_closed');
    const other = await api.account();
    const split = await move('ledger transaction', other, empty, at(-6 * DAY));
    expect(bodyOf(split).code).toBe('account_closed');
  });
});
