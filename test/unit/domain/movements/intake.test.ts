import { describe, expect, it } from 'vitest';
import type { AccountRecord, PostingEntry } from '../../../../functions/domain/accounts/model';
import { MovementCommands } from '../../../../functions/domain/movements/commands';
import {
  IntakeDirectory,
  MAX_ROUTE_ATTEMPTS,
  NO_INTAKE,
} from '../../../../functions/domain/movements/intake';
import { postingGuard } from '../../../../functions/domain/movements/legs';
import { requestOnce } from '../../../../functions/domain/movements/once';
import type { PostingRejection } from '../../../../functions/domain/movements/rejections';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

/** docs/contract.md §24: routing credits to deferred accounts, once, in the movement command. */
const account = (overrides: Partial<AccountRecord> = {}): AccountRecord => ({
  id: 'sink',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'deferred',
  intakeShards: 4,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
  ...overrides,
});

const entry = (type: 'credit' | 'debit', accountId = 'sink'): PostingEntry => ({
  id: `e-${type}`,
  accountId,
  type,
  amount: 5,
  currency: 'EUR',
  origin: 'http',
  createdAt: 'x',
  effectiveAt: 'x',
});
const posting = (type: 'credit' | 'debit') => {
  const e = entry(type);
  return { entry: e, guard: postingGuard(e, 'alice') };
};
const once = requestOnce({} as never);
const refusedBy = (stood: AccountRecord | undefined, viaGate = false): PostingRejection => ({
  kind: 'account_rejected',
  account: stood,
  ...(viaGate ? { viaGate } : {}),
});

describe('IntakeDirectory', () => {
  it('routes nothing until an account refuses a credit as deferred, then its credits only', () => {
    const directory = new IntakeDirectory();
    expect(directory.routesFor([entry('credit')])).toBe(NO_INTAKE);
    expect(directory.learn([entry('credit')], [{ index: 0, account: account() }])).toBe(true);
    expect([...directory.routesFor([entry('credit')])]).toEqual([['sink', 4]]);
    expect(directory.routesFor([entry('debit')])).toBe(NO_INTAKE);
  });

  it('learns nothing from a debit, a direct account or a refusal without an account', () => {
    const directory = new IntakeDirectory();
    expect(directory.learn([entry('debit')], [{ index: 0, account: account() }])).toBe(false);
    const direct = account({ creditIntake: 'direct' });
    expect(directory.learn([entry('credit')], [{ index: 0, account: direct }])).toBe(false);
    expect(directory.learn([entry('credit')], [{ index: 0, account: undefined }])).toBe(false);
  });

  it('forgets an account whose gate is missing or says direct', () => {
    const directory = new IntakeDirectory();
    directory.learn([entry('credit')], [{ index: 0, account: account() }]);
    const gone = [{ index: 0, account: undefined, viaGate: true }];
    expect(directory.learn([entry('credit')], gone)).toBe(true);
    expect(directory.routesFor([entry('credit')])).toBe(NO_INTAKE);
  });
});

describe('MovementCommands.post into a deferred account', () => {
  it('writes again through the gate once the account says it is deferred: one answer', async () => {
    const results = [refusedBy(account()), { kind: 'committed' as const }];
    const port = fakeMovementPort({ post: async () => results.shift() ?? { kind: 'committed' } });
    const commands = new MovementCommands(port);
    expect(await commands.post(once, posting('credit'))).toEqual({ kind: 'committed' });
    expect(port.post.mock.calls.map(([, , intake]) => [...(intake ?? [])])).toEqual([
      [],
      [['sink', 4]],
    ]);
    // The next credit goes to the gate at once.
    await commands.post(once, posting('credit'));
    expect([...(port.post.mock.calls[2]?.[2] ?? [])]).toEqual([['sink', 4]]);
  });

  it('explains a gate refusal as the account would (closed), without trying again', async () => {
    const closed = account({ status: 'closed' });
    const results = [refusedBy(account()), refusedBy(closed, true)];
    const port = fakeMovementPort({ post: async () => results.shift() ?? { kind: 'committed' } });
    const result = await new MovementCommands(port).post(once, posting('credit'));
    expect(result).toMatchObject({ kind: 'rejected', error: { code: 'account_closed' } });
    expect(port.post).toHaveBeenCalledTimes(2);
  });

  it(`gives up after ${MAX_ROUTE_ATTEMPTS} writes when every write teaches another route`, async () => {
    let flip = false;
    const port = fakeMovementPort({
      post: async () => {
        flip = !flip;
        return flip ? refusedBy(account()) : refusedBy(undefined, true);
      },
    });
    const result = await new MovementCommands(port).post(once, posting('credit'));
    expect(result.kind).toBe('rejected');
    expect(port.post).toHaveBeenCalledTimes(MAX_ROUTE_ATTEMPTS);
  });
});
