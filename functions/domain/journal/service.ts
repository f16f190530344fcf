import { JOURNAL_BEHIND_RETRY_SECONDS } from '../../contract/journal';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors';
import { valuesBefore } from './model';
import type { JournalAccount, JournalPage, JournalReadPort } from './port';

/** An account's balances as of an instant (docs/contract.md §15). */
export interface BalancesAsOf {
  readonly accountId: string;
  readonly asOf: string;
  readonly balance: number;
  readonly available: number;
  /** The last journal record committed at or before `asOf` (0: none). */
  readonly sequence: number;
}

/** The journal trails `version` and the answer depends on what it has not written yet. */
export class JournalBehindError extends DomainError {
  constructor(accountId: string) {
    super(
      'unavailable',
      `The journal of account ${accountId} has not caught up with its latest change yet; ` +
        `retry in ${JOURNAL_BEHIND_RETRY_SECONDS} s.`,
    );
  }
}

export interface JournalServiceOptions {
  /**
   * Principals that may read any account's journal and balances (CDK context
   * `journalReaders`): downstream consumers filling gaps for every account.
   */
  readonly readers: readonly string[];
}

/**
 * The journal's read routes: the catch-up page and as-of balances, at most two calls each (a
 * third when a change without a version, closing, came after `asOf`).
 */
export class JournalService {
  private readonly readers: ReadonlySet<string>;

  constructor(
    private readonly port: JournalReadPort,
    options: JournalServiceOptions,
  ) {
    this.readers = new Set(options.readers);
  }

  async listJournal(
    principal: string,
    accountId: string,
    afterSequence: number,
    limit: number,
  ): Promise<JournalPage> {
    await this.readableAccount(principal, accountId);
    return this.port.listRecords(accountId, afterSequence, limit);
  }

  /**
   * The values after the last record committed at or before `asOf`, found as the values before
   * the first record committed after it (one Query). Without such a record the account item
   * answers when `asOf` is at or after its last change; before that the journal still owes the
   * answer (503) — or, for an account older than the journal, never had it (400).
   */
  async balancesAsOf(
    principal: string,
    accountId: string,
    asOf: string,
    now: Date,
  ): Promise<BalancesAsOf> {
    const at = new Date(asOf);
    if (at.getTime() > now.getTime()) {
      throw new ValidationError('asOf is in the future.', [
        { path: 'query.asOf', message: 'must not be in the future' },
      ]);
    }
    const instant = at.toISOString();
    const account = await this.readableAccount(principal, accountId);
    const next = await this.port.firstRecordAfter(accountId, instant);
    const answer = (values: { balance: number; available: number }, sequence: number) => ({
      accountId,
      asOf: instant,
      balance: values.balance,
      available: values.available,
      sequence,
    });
    if (next) {
      if (next.opening) throw beforeJournal(next.committedAt);
      return answer(valuesBefore(next), next.sequence - 1);
    }
    if (instant >= account.updatedAt || (account.version === 0 && account.journalFromCreation)) {
      // Nothing after asOf: the account as it stands (a new account before its creation: zeros).
      return instant >= account.updatedAt
        ? answer(account, account.version)
        : answer({ balance: 0, available: 0 }, 0);
    }
    if (account.version === 0) throw beforeJournal(account.updatedAt);
    // A change without a version (closing, §17) moved updatedAt past asOf: the journal still
    // answers once it holds record `version`, the last change the balances depend on (§30).
    if (await this.journalHolds(accountId, account.version)) {
      return answer(account, account.version);
    }
    throw new JournalBehindError(accountId);
  }

  /** Whether the journal has written record `sequence` of the account. */
  private async journalHolds(accountId: string, sequence: number): Promise<boolean> {
    const page = await this.port.listRecords(accountId, sequence - 1, 1);
    return page.items[0]?.sequence === sequence;
  }

  /** The owner's account, or any account for a journal reader; else not_found, as if missing. */
  private async readableAccount(principal: string, accountId: string): Promise<JournalAccount> {
    const account = await this.port.getAccount(accountId);
    if (!account || (account.ownerId !== principal && !this.readers.has(principal))) {
      throw new NotFoundError('Account not found.');
    }
    return account;
  }
}

/** An account older than the journal: nothing is known before its record 1 (docs §15). */
function beforeJournal(start: string): ValidationError {
  return new ValidationError(
    `The journal of this account starts at ${start}; it knows no balances before that.`,
    [{ path: 'query.asOf', message: `must not be before ${start}` }],
  );
}
