import { describe, expect, it } from 'vitest';
import { createAccountReader } from '../../../console/server/accounts/reader';
import { createIntakeReader } from '../../../console/server/intake/intake';
import { PENDING_CREDITS_SHOWN } from '../../../console/shared/api';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import { toAccountRecord } from '../../../functions/dynamodb/accounts/items';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { intakeOf } from '../../support/intake/intake';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * The console's reads of deferred credits (docs/contract.md §24, §29) on DynamoDB Local: an
 * account's pending credits oldest first (at most PENDING_CREDITS_SHOWN, the gates' count as
 * the total) and the intake-lag page (every account with gates, the oldest pending credit first).
 */
const fixture = useLedgerFixture();
const { api } = fixture;

/** Ages are counted to this clock: one minute after the test's own time. */
let offsetMs = 60_000;
const clock = () => new Date(Date.now() + offsetMs);
const intake = () =>
  createIntakeReader({ client: fixture.client, tableName: fixture.tableName, clock });
const accounts = () =>
  createAccountReader({
    client: fixture.client,
    tableName: fixture.tableName,
    gapRefetchAfterSeconds: 60,
    clock,
    intake: intake(),
  });

const deferred = () => api.accountWith({ creditIntake: 'deferred' });
async function credit(accountId: string, amount: number, extra: Record<string, unknown> = {}) {
  const res = await api.post(`/v1/accounts/${accountId}/transactions`, {
    type: 'credit',
    amount,
    currency: 'EUR',
    ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`credit: ${res.body}`);
  return bodyOf(res);
}

describe('console: deferred credits', () => {
  it('the account page lists pending credits oldest first, with their ages', async () => {
    offsetMs = 60_000;
    const id = await deferred();
    const first = await credit(id, 250, { reference: 'fee-1' });
    const effectiveAt = new Date(Date.now() - 86_400_000).toISOString();
    const second = await credit(id, 700, { effectiveAt });
    const page = await accounts().page(id);
    expect(page?.account.creditIntake).toBe('deferred');
    expect(page?.account.balance).toBe(0);
    expect(page?.pendingCredits.total).toBe(2);
    expect(page?.pendingCredits.items).toEqual([
      {
        entryId: first.id,
        type: 'credit',
        amount: 250,
        acceptedAt: first.createdAt,
        effectiveAt: first.createdAt,
        ageSeconds: expect.any(Number),
        shard: expect.any(Number),
        reference: 'fee-1',
      },
      expect.objectContaining({
        entryId: second.id,
        amount: 700,
        acceptedAt: second.createdAt,
        effectiveAt,
      }),
    ]);
    for (const row of page?.pendingCredits.items ?? []) {
      expect(row.ageSeconds).toBeGreaterThanOrEqual(59);
      expect(row.ageSeconds).toBeLessThan(120);
    }

    const direct = await api.account(500);
    const directPage = await accounts().page(direct);
    expect(directPage?.account.creditIntake).toBe('direct');
    expect(directPage?.pendingCredits).toEqual({ items: [], total: 0 });
  });

  it(`lists at most ${PENDING_CREDITS_SHOWN}, the oldest, and counts the rest`, async () => {
    const id = await deferred();
    for (let i = 0; i < PENDING_CREDITS_SHOWN + 5; i += 1) await credit(id, 100 + i);
    const { pending } = await intakeOf(fixture.client, fixture.tableName, id);
    const oldest = pending
      .map((p) => ({ at: String(p.acceptedAt), id: String(p.entryId) }))
      .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
      .slice(0, PENDING_CREDITS_SHOWN)
      .map((p) => p.id);
    const shown = await intake().pendingCredits(await accountRecord(id));
    expect(shown.total).toBe(PENDING_CREDITS_SHOWN + 5);
    expect(shown.items.map((p) => p.entryId)).toEqual(oldest);
  });

  it('the intake-lag page lists deferred accounts, the oldest pending credit first', async () => {
    offsetMs = 120_000;
    const older = await deferred();
    const olderCredit = await credit(older, 100);
    const newer = await deferred();
    await credit(newer, 200);
    await credit(newer, 300);
    await credit(newer, 400);
    const idle = await deferred();
    const direct = await api.account(100);

    const page = await intake().lag();
    expect(page.complete).toBe(true);
    const mine = page.accounts.filter((a) => [older, newer, idle, direct].includes(a.accountId));
    expect(mine.map((a) => a.accountId)).toEqual([older, newer, idle]);
    expect(mine[0]).toEqual({
      accountId: older,
      ownerId: 'alice',
      creditIntake: 'deferred',
      shards: 8,
      pending: 1,
      oldestAt: olderCredit.createdAt,
      oldestAgeSeconds: expect.any(Number),
    });
    expect(mine[0]?.oldestAgeSeconds).toBeGreaterThanOrEqual(119);
    expect(mine[1]).toMatchObject({ pending: 3 });
    expect(mine[2]).toEqual({
      accountId: idle,
      ownerId: 'alice',
      creditIntake: 'deferred',
      shards: 8,
      pending: 0,
    });
    // Worst first over the whole page: every account with something pending before any without.
    const firstIdle = page.accounts.findIndex((a) => a.pending === 0);
    expect(page.accounts.slice(firstIdle).every((a) => a.pending === 0)).toBe(true);
  });

  it('counts what waits as accepted less what the folder posted', async () => {
    offsetMs = 0;
    const id = await deferred();
    for (const amount of [1, 2, 3]) await credit(id, amount);
    const port = createPostingStore({ client: fixture.client, tableName: fixture.tableName });
    expect(await new CreditFolder(port, { clock: () => new Date() }).postAll(id)).toMatchObject({
      posted: 3,
      finished: true,
    });
    const later = await credit(id, 40);
    await credit(id, 50);
    const shown = await intake().pendingCredits(await accountRecord(id));
    expect(shown.total).toBe(2);
    expect(shown.items.map((p) => p.amount)).toEqual([40, 50]);
    const row = (await intake().lag()).accounts.find((a) => a.accountId === id);
    expect(row).toMatchObject({ pending: 2, oldestAt: later.createdAt });
  });
});

async function accountRecord(id: string) {
  const raw = await getItem(fixture.client, fixture.tableName, keys.account(id));
  if (!raw) throw new Error('no account');
  return toAccountRecord(raw);
}
