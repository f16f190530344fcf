import { describe, expect, it, vi } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import type { SettingsPort } from '../../../../functions/domain/accounts/port';
import { planSettings, SettingsService } from '../../../../functions/domain/accounts/settings';
import { idempotencyScopeId } from '../../../../functions/domain/idempotency/fingerprint';
import { OPERATION_IDS } from '../../../../functions/domain/idempotency/operations';
import { fakeSettingsPort } from '../../../support/fakes/ledger/settings';

const ctx = { principal: 'alice', idempotencyKey: 'k1', now: new Date('2026-11-29T10:00:00Z') };
const AT = ctx.now.toISOString();
const account: AccountRecord = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: -30,
  available: -30,
  overdraftLimit: 100,
  status: 'open',
  creditIntake: 'direct',
  version: 4,
  createdAt: 'x',
  updatedAt: 'x',
};

describe('planSettings (docs/contract.md §24)', () => {
  it('turning deferred the first time fixes intakeShards and syncs the gates', () => {
    const plan = planSettings(account, { creditIntake: 'deferred' }, 8, AT);
    expect(plan).toEqual({
      kind: 'change',
      next: { ...account, creditIntake: 'deferred', intakeShards: 8, updatedAt: AT },
      gates: true,
    });
  });

  it('turning direct keeps intakeShards and syncs the gates; turning deferred again keeps them', () => {
    const deferred = { ...account, creditIntake: 'deferred' as const, intakeShards: 4 };
    const direct = planSettings(deferred, { creditIntake: 'direct' }, 8, AT);
    expect(direct).toMatchObject({ kind: 'change', gates: true });
    expect(direct.kind === 'change' && direct.next).toMatchObject({
      creditIntake: 'direct',
      intakeShards: 4,
    });
    const again = planSettings(
      { ...deferred, creditIntake: 'direct' },
      { creditIntake: 'deferred' },
      8,
      AT,
    );
    expect(again.kind === 'change' && again.next.intakeShards).toBe(4);
  });

  it('an overdraft change alone writes no gates and never gives a direct account shards', () => {
    const plan = planSettings(account, { overdraftLimit: 200 }, 8, AT);
    expect(plan).toMatchObject({ kind: 'change', gates: false });
    expect(plan.kind === 'change' && plan.next).toMatchObject({ overdraftLimit: 200 });
    expect(plan.kind === 'change' && 'intakeShards' in plan.next).toBe(false);
  });

  it('a limit down to what is drawn passes; below it is insufficient_funds', () => {
    expect(planSettings(account, { overdraftLimit: 30 }, 8, AT).kind).toBe('change');
    const plan = planSettings(account, { overdraftLimit: 29 }, 8, AT);
    expect(plan.kind === 'rejected' && plan.error.code).toBe('insufficient_funds');
  });

  it('the same values again change nothing; a closed account is account_closed', () => {
    expect(planSettings(account, { creditIntake: 'direct', overdraftLimit: 100 }, 8, AT)).toEqual({
      kind: 'unchanged',
    });
    const closed = planSettings({ ...account, status: 'closed' }, { overdraftLimit: 100 }, 8, AT);
    expect(closed.kind === 'rejected' && closed.error.code).toBe('account_closed');
  });
});

describe('SettingsService.changeSettings', () => {
  const service = (port: SettingsPort, intakeShards?: number) =>
    new SettingsService(port, {
      idempotencyRetentionSeconds: 60,
      responses: httpResponses,
      newId: () => 'unused',
      ...(intakeShards === undefined ? {} : { intakeShards }),
      optimistic: { sleep: async () => {}, maxAttempts: 3 },
    });
  const reading = (reads: (AccountRecord | undefined)[], overrides: Partial<SettingsPort> = {}) =>
    fakeSettingsPort({ getAccount: async () => reads.shift(), ...overrides });

  it('writes claim, account and gates in one call and answers 200 with the account', async () => {
    const port = reading([account]);
    const res = await service(port, 3).changeSettings(
      ctx,
      'a1',
      { creditIntake: 'deferred' },
      {
        creditIntake: 'deferred',
      },
    );
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ id: 'a1', creditIntake: 'deferred', version: 4 });
    expect(body).not.toHaveProperty('intakeShards');
    expect(body).not.toHaveProperty('ownerId');
    const [claim, read, next, gates] = port.updateSettings.mock.calls[0] ?? [];
    expect([read, next?.intakeShards, gates]).toEqual([account, 3, true]);
    expect(claim?.response.body).toBe(res.body);
  });

  it('defaults to DEFAULT_INTAKE_SHARDS', async () => {
    const port = reading([account]);
    await service(port).changeSettings(ctx, 'a1', { creditIntake: 'deferred' }, {});
    expect(port.updateSettings.mock.calls[0]?.[2].intakeShards).toBe(8);
  });

  it('records account_closed and insufficient_funds, writing only the claim', async () => {
    for (const [read, input, code] of [
      [{ ...account, status: 'closed' as const }, { overdraftLimit: 5 }, 'account_closed'],
      [account, { overdraftLimit: 0 }, 'insufficient_funds'],
    ] as const) {
      const port = reading([read]);
      const res = await service(port).changeSettings(ctx, 'a1', input, { ...input });
      expect([res.statusCode, JSON.parse(res.body).code]).toEqual([409, code]);
      expect(port.recordResponse).toHaveBeenCalledOnce();
      expect(port.updateSettings).not.toHaveBeenCalled();
    }
  });

  it('answers the same values as they are with the claim alone', async () => {
    const port = reading([account]);
    const res = await service(port).changeSettings(ctx, 'a1', { overdraftLimit: 100 }, {});
    expect(JSON.parse(res.body)).toMatchObject({ overdraftLimit: 100 });
    expect(port.updateSettings).not.toHaveBeenCalled();
    expect(port.recordResponse).toHaveBeenCalledOnce();
  });

  it('reads again and decides again when the account moved', async () => {
    const update = vi
      .fn<SettingsPort['updateSettings']>()
      .mockResolvedValueOnce({ kind: 'account_moved' })
      .mockResolvedValue({ kind: 'committed' });
    const drawn = { ...account, balance: -80, available: -80, updatedAt: 'y' };
    const port = reading([account, drawn], { updateSettings: update });
    const res = await service(port).changeSettings(ctx, 'a1', { overdraftLimit: 50 }, {});
    expect(JSON.parse(res.body).code).toBe('insufficient_funds');
    expect(port.getAccount).toHaveBeenCalledTimes(2);
    expect(update).toHaveBeenCalledOnce();
  });

  it('answers 404 for a missing or foreign account after checking the key', async () => {
    for (const read of [undefined, { ...account, ownerId: 'bob' }]) {
      const port = reading([read]);
      await expect(
        service(port).changeSettings(ctx, 'a1', { overdraftLimit: 1 }, {}),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect(port.findRecord).toHaveBeenCalledOnce();
    }
  });

  it('claims under its own operation id', async () => {
    const port = reading([account]);
    await service(port).changeSettings(ctx, 'a1', { overdraftLimit: 200 }, {});
    const [claim] = port.updateSettings.mock.calls[0] ?? [];
    expect(claim?.scopeId).toBe(
      idempotencyScopeId('alice', 'POST /v1/accounts/{accountId}/settings', 'k1'),
    );
    expect(OPERATION_IDS.changeSettings).toBe('POST /v1/accounts/{accountId}/settings');
  });
});
