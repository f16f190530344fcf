import { describe, expect, it, vi } from 'vitest';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import {
  intakeShardOf,
  type PendingCredit,
} from '../../../../functions/domain/accounts/pending-credits';
import type { EntryReadPort } from '../../../../functions/domain/accounts/port';
import { EntryReadService, pendingCreditView } from '../../../../functions/domain/accounts/reads';
import { fakeEntryReadPort } from '../../../support/fakes/ledger/settings';

const account: AccountRecord = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'deferred',
  intakeShards: 8,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
};
const entry: LedgerEntry = {
  id: 'e-1',
  accountId: 'a1',
  type: 'transfer_in',
  amount: 40,
  currency: 'EUR',
  transferId: 't1',
  counterpartyAccountId: 'a2',
  origin: 'http',
  createdAt: '2026-11-29T10:00:00.000Z',
  effectiveAt: '2026-11-29T10:00:00.000Z',
};
const pending: PendingCredit = { entry, acceptedAt: '2026-11-29T10:00:00.000Z', shard: 3 };

const service = (overrides: Partial<EntryReadPort>) => {
  const port = fakeEntryReadPort({ getAccount: async () => account, ...overrides });
  return { port, reads: new EntryReadService(port) };
};

describe('EntryReadService.getEntry (docs/contract.md §24)', () => {
  it('a posted entry reads with status posted, without looking for a pending one', async () => {
    const { port, reads } = service({ postedEntry: async () => ({ ...entry, type: 'credit' }) });
    const read = await reads.getEntry('alice', 'a1', 'e-1');
    expect(read).toMatchObject({ id: 'e-1', status: 'posted', reversedAmount: 0 });
    expect(port.pendingEntry).not.toHaveBeenCalled();
  });

  it('a pending credit is looked for in the one shard its id falls in', async () => {
    const { port, reads } = service({ pendingEntry: async () => pending });
    expect(await reads.getEntry('alice', 'a1', 'e-1')).toMatchObject({ status: 'pending' });
    expect(port.pendingEntry).toHaveBeenCalledWith('a1', intakeShardOf('e-1', 8), 'e-1');
  });

  it('a credit posted between the two reads is found by its pointer once more', async () => {
    const posted = vi
      .fn<EntryReadPort['postedEntry']>()
      .mockResolvedValueOnce(undefined)
      .mockResolvedValue(entry);
    const { reads } = service({ postedEntry: posted });
    expect(await reads.getEntry('alice', 'a1', 'e-1')).toMatchObject({ status: 'posted' });
    expect(posted).toHaveBeenCalledTimes(2);
  });

  it('missing, foreign, or a direct account without shards: not_found', async () => {
    await expect(service({}).reads.getEntry('alice', 'a1', 'e-1')).rejects.toMatchObject({
      code: 'not_found',
    });
    const foreign = service({ postedEntry: async () => entry });
    await expect(foreign.reads.getEntry('bob', 'a1', 'e-1')).rejects.toMatchObject({
      code: 'not_found',
    });
    const { intakeShards: _, ...direct } = { ...account, creditIntake: 'direct' as const };
    const never = service({ getAccount: async () => direct });
    await expect(never.reads.getEntry('alice', 'a1', 'e-1')).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(never.port.pendingEntry).not.toHaveBeenCalled();
  });
});

describe('EntryReadService.listPendingCredits', () => {
  it('lists the movement ids of each pending credit, nothing undefined', async () => {
    const { port, reads } = service({
      pendingCredits: async () => ({ items: [pending], nextCursor: 'c2' }),
    });
    const page = await reads.listPendingCredits('alice', 'a1', 10, 'c1');
    expect(page).toEqual({
      items: [
        {
          entryId: 'e-1',
          accountId: 'a1',
          amount: 40,
          currency: 'EUR',
          kind: 'transfer_in',
          acceptedAt: pending.acceptedAt,
          effectiveAt: entry.effectiveAt,
          status: 'pending',
          transferId: 't1',
        },
      ],
      nextCursor: 'c2',
    });
    expect(port.pendingCredits).toHaveBeenCalledWith('a1', 8, 10, 'c1');
    expect(Object.keys(pendingCreditView(pending))).not.toContain('reference');
    const setAside = { reason: 'period_closed', setAsideAt: entry.effectiveAt };
    expect(pendingCreditView({ ...pending, setAside })).toMatchObject({
      status: 'set_aside',
      ...setAside,
    });
  });

  it('an account that never deferred lists nothing without a query; a foreign one is 404', async () => {
    const { intakeShards: _, ...direct } = account;
    const never = service({ getAccount: async () => direct });
    expect(await never.reads.listPendingCredits('alice', 'a1', 10, undefined)).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(never.port.pendingCredits).not.toHaveBeenCalled();
    await expect(
      service({}).reads.listPendingCredits('bob', 'a1', 10, undefined),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
