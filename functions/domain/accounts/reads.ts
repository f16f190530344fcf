import type { EntryRead, ReversalTarget, TransactionType } from './model';
import { notFound, ownedBy, readEntry } from './model';
import { intakeShardOf, type PendingCredit } from './pending-credits';
import type { EntryReadPort } from './port';

/**
 * A pending credit as `GET …/pending-credits` lists it (docs/contract.md §24): the entry it
 * will post as, when it was accepted, and the ids of the movement that made it.
 */
export interface PendingCreditView {
  readonly entryId: string;
  readonly accountId: string;
  readonly amount: number;
  readonly currency: string;
  /** The entry's type: the journal record's kind once posted. */
  readonly kind: TransactionType;
  readonly acceptedAt: string;
  readonly effectiveAt: string;
  readonly transferId?: string;
  readonly ledgerTransactionId?: string;
  readonly reversalOf?: ReversalTarget;
  readonly reference?: string;
  readonly paymentId?: string;
  /** `set_aside`: the folder can never post it (§36); an operator resolves it. */
  readonly status: 'pending' | 'set_aside';
  /** Why it was set aside (a refusal code) and when; only when set aside. */
  readonly reason?: string;
  readonly setAsideAt?: string;
}

export interface PendingCreditViewPage {
  readonly items: PendingCreditView[];
  readonly nextCursor: string | null;
}

export function pendingCreditView({
  entry,
  acceptedAt,
  setAside,
}: PendingCredit): PendingCreditView {
  const optional = {
    transferId: entry.transferId,
    ledgerTransactionId: entry.ledgerTransactionId,
    reversalOf: entry.reversalOf,
    reference: entry.reference,
    paymentId: entry.paymentId,
  };
  return {
    entryId: entry.id,
    accountId: entry.accountId,
    amount: entry.amount,
    currency: entry.currency,
    kind: entry.type,
    acceptedAt,
    effectiveAt: entry.effectiveAt,
    status: setAside === undefined ? 'pending' : 'set_aside',
    ...(setAside === undefined ? {} : { reason: setAside.reason, setAsideAt: setAside.setAsideAt }),
    // Absent, not `undefined`: only the movement's own ids.
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

/** Entries by id and pending credits, owner only (docs/contract.md §24). */
export class EntryReadService {
  constructor(private readonly port: EntryReadPort) {}

  /**
   * The entry with this id on the account, posted, pending or set aside (§36): its id pointer,
   * else the pending or set-aside credit in the one partition its id falls in; a credit posted between the two reads is found
   * by reading the pointer once more. Missing and foreign alike are `not_found`.
   */
  async getEntry(principal: string, accountId: string, entryId: string): Promise<EntryRead> {
    const [read, posted] = await Promise.all([
      this.port.getAccount(accountId),
      this.port.postedEntry(accountId, entryId),
    ]);
    const account = ownedBy(read, principal, 'Account');
    if (posted) return readEntry(posted, 'posted');
    if (account.intakeShards !== undefined) {
      const shard = intakeShardOf(entryId, account.intakeShards);
      const pending = await this.port.pendingEntry(accountId, shard, entryId);
      if (pending?.setAside)
        return { ...readEntry(pending.entry, 'set_aside'), ...pending.setAside };
      if (pending) return readEntry(pending.entry, 'pending');
      const postedSince = await this.port.postedEntry(accountId, entryId);
      if (postedSince) return readEntry(postedSince, 'posted');
    }
    throw notFound('Entry');
  }

  /** Oldest first across every intake partition; none for an account that never deferred. */
  async listPendingCredits(
    principal: string,
    accountId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<PendingCreditViewPage> {
    const account = ownedBy(await this.port.getAccount(accountId), principal, 'Account');
    if (account.intakeShards === undefined) return { items: [], nextCursor: null };
    const page = await this.port.pendingCredits(accountId, account.intakeShards, limit, cursor);
    return { items: page.items.map(pendingCreditView), nextCursor: page.nextCursor };
  }
}
