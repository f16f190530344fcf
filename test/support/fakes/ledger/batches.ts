import type { Mocked } from 'vitest';
import { batchResponses } from '../../../../functions/api/batches/routes';
import { httpResponses } from '../../../../functions/api/problems';
import { LedgerService } from '../../../../functions/domain/accounts/service';
import type { BatchPort } from '../../../../functions/domain/batches/port';
import { BatchService } from '../../../../functions/domain/batches/service';
import { LedgerTransactionService } from '../../../../functions/domain/ledger-transactions/service';
import { TransferService } from '../../../../functions/domain/transfers/service';
import { fakeOf, RECORDED } from '../fake';
import { fakeLedgerPort } from './accounts';
import { fakeLedgerTransactionPort } from './ledger-transactions';
import { fakeMovementPort } from './movements';
import { fakeTransferPort } from './transfers';

/**
 * `BatchPort`: every shared transaction commits, nothing is stored, every lease is taken,
 * unless the test says otherwise.
 */
export function fakeBatchPort(overrides: Partial<BatchPort> = {}): Mocked<BatchPort> {
  return fakeOf<BatchPort>(
    {
      writeMovements: async () => ({ kind: 'committed' }),
      recordResponse: async () => RECORDED,
      findRecord: async () => undefined,
      readAccounts: async () => new Map(),
      takeLease: async () => ({ kind: 'taken' }),
      releaseLease: async () => {},
    },
    overrides,
  );
}

/**
 * The batch service on `batches`, its single routes' commands on fakes (postings through
 * `ledger`), the HTTP presenters, ids `id-1`, `id-2`, … and the clock `now` (epoch ms).
 */
export function batchServiceOn(
  batches = fakeBatchPort(),
  ledger = fakeMovementPort(),
  now = () => 0,
) {
  let ids = 0;
  const options = {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    newId: () => `id-${++ids}`,
    backdateLimitDays: 90,
  };
  const service = new BatchService(
    batches,
    {
      postings: new LedgerService(fakeLedgerPort(), ledger, options),
      transfers: new TransferService(fakeTransferPort(), fakeMovementPort(), options),
      ledgerTransactions: new LedgerTransactionService(
        fakeLedgerTransactionPort(),
        fakeMovementPort(),
        options,
      ),
    },
    { ...options, presenter: batchResponses, now },
  );
  return { service, batches, ledger };
}
