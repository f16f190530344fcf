import { describe, expect, it } from 'vitest';
import { chain } from '../../../../functions/domain/journal/chain';
import {
  type AccountChange,
  type AccountImage,
  recordsOf,
} from '../../../../functions/domain/journal/model';
import { AccountChangeSchema } from '../../../../functions/schemas/journal';

/**
 * docs/contract.md §24: the journal record of a posted deferred credit carries `acceptedAt`;
 * every other record has no such field, so it is written and hashed (§27) exactly as before.
 */
const at = '2026-12-01T10:00:00.000Z';
const accepted = '2026-12-01T09:59:58.000Z';

const credit = (extra: Partial<AccountChange> = {}): AccountChange => ({
  kind: 'credit',
  balanceDelta: 100,
  availableDelta: 100,
  at,
  entryId: '00000000-0000-4000-8000-000000000001',
  effectiveAt: accepted,
  ...extra,
});

const image = (changes: AccountChange[]): AccountImage => ({
  accountId: '00000000-0000-4000-8000-0000000000aa',
  version: changes.length,
  balance: 100 * changes.length,
  available: 100 * changes.length,
  changes,
  journalFromCreation: true,
});

describe('acceptedAt in the journal (docs/contract.md §24)', () => {
  it('a record without acceptedAt has no such field and its hash is pinned', () => {
    const [record] = chain(recordsOf(image([credit()]), undefined), undefined);
    expect(record).not.toHaveProperty('acceptedAt');
    // Pinned before acceptedAt existed: records of direct changes hash as they always did.
    expect(record?.hash).toBe('0b5e18f8a8b20cbcbb216cfb044d6688cba04a93c28feeaedde3adaf4ecf3854');
  });

  it('a posted credit carries acceptedAt into its record, and it is hashed', () => {
    const [plain] = chain(recordsOf(image([credit()]), undefined), undefined);
    const [posted] = chain(
      recordsOf(image([credit({ acceptedAt: accepted })]), undefined),
      undefined,
    );
    expect(posted).toMatchObject({ acceptedAt: accepted, sequence: 1 });
    expect(posted?.hash).not.toBe(plain?.hash);
  });

  it('the stored descriptor keeps acceptedAt through the stream decoder schema', () => {
    const parsed = AccountChangeSchema.parse(credit({ acceptedAt: accepted }));
    expect(parsed.acceptedAt).toBe(accepted);
  });
});
