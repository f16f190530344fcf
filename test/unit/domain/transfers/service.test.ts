import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import type { TransferRecord } from '../../../../functions/domain/accounts/transfer-record';
import type { EventLedgerPort } from '../../../../functions/domain/events/port';
import { EventService } from '../../../../functions/domain/events/service';
import type { LegsRejection } from '../../../../functions/domain/movements/legs';
import type { MovementWrite } from '../../../../functions/domain/movements/once';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import {
  explainTransferRejection,
  transferLegs,
} from '../../../../functions/domain/movements/transfer';
import type { TransferPort } from '../../../../functions/domain/transfers/port';
import { TransferService } from '../../../../functions/domain/transfers/service';
import { fakeEventLedgerPort } from '../../../support/fakes/events';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';
import { fakeTransferPort } from '../../../support/fakes/ledger/transfers';

type TransferWriteResult = MovementWrite<LegsRejection>;

const ctx = { principal: 'alice', idempotencyKey: 'k1', now: new Date('2026-12-01T10:00:00Z') };
const input = {
  fromAccountId: 'a',
  toAccountId: 'b',
  amount: 70,
  currency: 'EUR',
  paymentId: 'p1',
};
const account = (id: string, change: Partial<AccountRecord> = {}): AccountRecord => ({
  id,
  ownerId: 'alice',
  currency: 'EUR',
  balance: 100,
  available: 100,
  overdraftLimit: 0,
  status: 'open' as const,
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
  ...change,
});

const fakePort = (result: TransferWriteResult) =>
  Object.assign(fakeTransferPort(), {
    movements: fakeMovementPort({ transfer: async () => result }),
  });

let ids = 0;
const service = (port: TransferPort & { movements: MovementPort }) =>
  new TransferService(port, port.movements, {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    backdateLimitDays: 90,
    newId: () => `id-${++ids}`,
  });

describe('transfer legs', () => {
  it('puts the paymentId on the outgoing leg only and points each leg at the other account', () => {
    const transfer: TransferRecord = {
      id: 't1',
      ...input,
      createdAt: 'now',
      effectiveAt: 'now',
      ownerId: 'alice',
      origin: 'http',
    };
    const [out, incoming] = transferLegs(transfer, { out: 'e1', in: 'e2' });
    expect(out).toMatchObject({
      type: 'transfer_out',
      accountId: 'a',
      counterpartyAccountId: 'b',
      paymentId: 'p1',
      transferId: 't1',
    });
    expect(incoming).toMatchObject({
      type: 'transfer_in',
      accountId: 'b',
      counterpartyAccountId: 'a',
      transferId: 't1',
    });
    expect(incoming?.paymentId).toBeUndefined();
  });
});

describe('TransferService', () => {
  it('writes one transfer guarded on the source covering the amount', async () => {
    const port = fakePort({ kind: 'committed' });
    const res = await service(port).createTransfer(ctx, input, { ...input });
    expect(res.statusCode).toBe(201);
    const [, write] = port.movements.transfer.mock.calls[0] ?? [];
    expect(write?.ownerId).toBe('alice');
    expect(JSON.parse(res.body)).toEqual({
      id: write?.transfer.id,
      ...input,
      createdAt: ctx.now.toISOString(),
      effectiveAt: ctx.now.toISOString(),
    });
  });

  it.each([
    [
      'the source is missing and the destination lacks funds',
      [
        { index: 0, account: undefined },
        { index: 1, account: account('b', { currency: 'USD' }) },
      ],
      'not_found',
    ],
    [
      'the destination belongs to someone else',
      [{ index: 1, account: account('b', { ownerId: 'bob' }) }],
      'not_found',
    ],
    [
      'the destination holds another currency and the source lacks funds',
      [
        { index: 0, account: account('a', { available: 10 }) },
        { index: 1, account: account('b', { currency: 'USD' }) },
      ],
      'currency_mismatch',
    ],
    [
      'money on hold leaves too little available',
      [{ index: 0, account: account('a', { balance: 100, available: 60 }) }],
      'insufficient_funds',
    ],
  ] as const)('explains a refusal where %s', (_name, sides, code) => {
    const transfer = {
      ...input,
      id: 't',
      createdAt: 'x',
      effectiveAt: 'x',
      ownerId: 'alice',
      origin: 'http' as const,
    };
    const write = {
      transfer,
      legs: transferLegs(transfer, { out: 'o', in: 'i' }),
      ownerId: 'alice',
    };
    expect(explainTransferRejection({ kind: 'legs_rejected', legs: sides }, write).code).toBe(code);
  });

  it('records 409 payment_id_conflict and does not record a 404', async () => {
    const taken = fakePort({ kind: 'payment_id_taken' });
    expect((await service(taken).createTransfer(ctx, input, input)).statusCode).toBe(409);
    expect(taken.recordResponse).toHaveBeenCalledOnce();

    const missing = fakePort({
      kind: 'legs_rejected',
      legs: [{ index: 1, account: undefined }],
    });
    await expect(service(missing).createTransfer(ctx, input, input)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(missing.recordResponse).not.toHaveBeenCalled();
  });
});

describe('EventService: ledger.transfer.v1', () => {
  const A = 'a';
  const event = {
    source: 'urn:p',
    id: 'e1',
    type: 'transfer' as const,
    accountId: A,
    toAccountId: 'b',
    amount: 70,
    currency: 'EUR',
    sequence: 3,
    contentHash: 'h',
  };
  const eventPort = (result: TransferWriteResult, source: AccountRecord | undefined = account(A)) =>
    Object.assign(fakeEventLedgerPort({ getAccount: async () => source }), {
      movements: fakeMovementPort({ transfer: async () => result }),
    });
  const events = (port: EventLedgerPort & { movements: MovementPort }) =>
    new EventService(port, port.movements, {
      newId: randomUUID,
      inboxRetentionSeconds: 60,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
      sleep: async () => {},
    });

  it("writes the transfer as the source owner's, with the source's sequence", async () => {
    const port = eventPort({ kind: 'committed' });
    const outcome = await events(port).apply(event, ctx.now);
    expect(outcome).toMatchObject({ kind: 'applied', sequence: { newGaps: [1, 2] } });
    const [once, write] = port.movements.transfer.mock.calls[0] ?? [];
    const claim = once?.claim;
    const sequence = once?.kind === 'inbox' ? once.sequence : undefined;
    expect(claim).toMatchObject({ source: 'urn:p', id: 'e1' });
    expect(write).toMatchObject({
      ownerId: 'alice',
      transfer: { origin: 'event', fromAccountId: A },
    });
    expect(sequence).toMatchObject({ accountId: A, source: 'urn:p', next: { lastSequence: 3 } });
  });

  it.each([
    [
      'a destination of another owner',
      [{ index: 1, account: account('b', { ownerId: 'bob' }) }],
      'owner_mismatch',
    ],
    ['a missing destination', [{ index: 1, account: undefined }], 'not_found'],
    [
      'too little available',
      [{ index: 0, account: account(A, { available: 10 }) }],
      'insufficient_funds',
    ],
  ] as const)('rejects %s as %s', async (_name, sides, code) => {
    const port = eventPort({ kind: 'legs_rejected', legs: sides });
    const outcome = await events(port).apply(event, ctx.now);
    expect(outcome.kind === 'rejected' && outcome.error.code).toBe(code);
  });

  it('rejects an unknown source without writing', async () => {
    const port = eventPort({ kind: 'committed' });
    vi.mocked(port.getAccount).mockResolvedValue(undefined);
    const outcome = await events(port).apply(event, ctx.now);
    expect(outcome.kind === 'rejected' && outcome.error.code).toBe('not_found');
    expect(port.movements.transfer).not.toHaveBeenCalled();
  });
});
