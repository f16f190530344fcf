/**
 * The console's JSON API (docs/console.md, docs/contract.md §29): one definition of its paths,
 * limits and shapes, imported by the server (console/server/) and the pages (console/web/).
 * Plain TypeScript: no Node, no DOM.
 */

/** Where the console is served, on `npm start`'s port or `npm run console`'s. */
export const CONSOLE_PATH = '/console';
/** The JSON API under it. */
export const CONSOLE_API = `${CONSOLE_PATH}/api`;

/** The header every `/console/api` request carries the console's token in (docs/console.md). */
export const CONSOLE_TOKEN_HEADER = 'X-Console-Token';
/** The URL fragment parameter the banner passes the token to the page in: `#token=…`. */
export const CONSOLE_TOKEN_FRAGMENT = 'token';

/** The console's address with its token, as `npm start` and `npm run console` print it. */
export function consoleUrl(origin: string, token: string): string {
  return `${origin}${CONSOLE_PATH}/#${CONSOLE_TOKEN_FRAGMENT}=${encodeURIComponent(token)}`;
}

export const CONSOLE_ROUTES = {
  accounts: `${CONSOLE_API}/accounts`,
  account: (accountId: string) => `${CONSOLE_API}/accounts/${encodeURIComponent(accountId)}`,
  deadLetters: `${CONSOLE_API}/dead-letters`,
  redrive: `${CONSOLE_API}/dead-letters/redrive`,
  gaps: `${CONSOLE_API}/gaps`,
  waive: `${CONSOLE_API}/gaps/waive`,
  findings: `${CONSOLE_API}/findings`,
  intake: `${CONSOLE_API}/intake`,
  search: `${CONSOLE_API}/search`,
  webhooks: `${CONSOLE_API}/webhooks`,
} as const;

/** Messages one redrive click moves at most, selected or "all". */
export const REDRIVE_MAX_PER_CLICK = 10;
/** Messages the dead-letter page lists per queue (read, then made visible again). */
export const DEAD_LETTERS_LISTED = 50;
/** Journal records the account page reads for its chart and table (the newest). */
export const JOURNAL_RECORDS_SHOWN = 500;
/** Entries and holds the account page lists (the newest). */
export const ACCOUNT_ITEMS_SHOWN = 50;
/** Accounts one page of the Accounts page lists ("most recent", or a search's matches). */
export const ACCOUNTS_PER_PAGE = 20;
/** Pending credits the account page lists (the oldest); the page says when more wait. */
export const PENDING_CREDITS_SHOWN = 50;
/** Items the intake-lag page's Scan for intake gates reads at most (no index of deferred accounts). */
export const INTAKE_SCAN_LIMIT = 5_000;

/** An action the console refuses without `confirm: true` in its body. */
export interface Confirmed {
  readonly confirm: true;
}

export interface RedriveRequest extends Partial<Confirmed> {
  /** The dead-letter queue's name, as listed. */
  readonly queue: string;
  /** The messages to move; absent: "all" (still at most REDRIVE_MAX_PER_CLICK). */
  readonly messageIds?: readonly string[];
}

export interface RedriveResult {
  readonly queue: string;
  readonly target: string;
  readonly moved: readonly string[];
  /** Selected ids not found in the queue (moved or deleted meanwhile). */
  readonly missing: readonly string[];
  /** Messages left in the queue after this click (approximate). */
  readonly remaining: number;
}

export interface WaiveRequest extends Partial<Confirmed> {
  readonly accountId: string;
  readonly source: string;
  readonly numbers: readonly number[];
  readonly reason: string;
}

export interface WaiveResult {
  readonly outcome: 'waived' | 'duplicate' | 'id_conflict';
  readonly waived: readonly number[];
  readonly ignored: readonly number[];
}

/** Every error the console API answers: `{ error }`, in words. */
export interface ConsoleError {
  readonly error: string;
}

/** One account, as the search and the account page show it; fields of later features optional. */
export interface AccountSummary {
  readonly id: string;
  readonly ownerId: string;
  readonly name?: string;
  readonly currency: string;
  readonly balance: number;
  readonly available: number;
  readonly status: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A page of the Accounts page, read from the account directory's indexes (§31): the most recent
 * accounts, or an owner's accounts then the accounts whose name starts with the query.
 */
export interface AccountSearch {
  readonly items: readonly AccountSummary[];
  /** Present while more match: `?cursor=` asks for the next page. */
  readonly nextCursor?: string;
}

export interface AccountDetail extends AccountSummary {
  readonly version: number;
  readonly overdraftLimit: number;
  readonly spendable?: number;
  /** Deferred credits (a later feature), when the account item carries it. */
  readonly creditIntake?: string;
  /** Closed periods (a later feature), when the account item carries it. */
  readonly closedThrough?: string;
  readonly closedAt?: string;
}

export interface JournalRow {
  readonly sequence: number;
  readonly kind: string;
  readonly balanceDelta: number;
  readonly availableDelta: number;
  readonly balanceAfter: number;
  readonly availableAfter: number;
  readonly committedAt: string;
  readonly entryId?: string;
  readonly holdId?: string;
  /** The hash chain (a later feature), when records carry it. */
  readonly hash?: string;
}

export interface EntryRow {
  readonly id: string;
  readonly type: string;
  readonly amount: number;
  readonly createdAt: string;
  readonly status?: string;
  readonly effectiveAt?: string;
  readonly reference?: string;
  readonly transferId?: string;
  readonly ledgerTransactionId?: string;
  /** A ledger leg's transaction, every leg in its own currency (docs/contract.md §35). */
  readonly legs?: readonly LegRow[];
}

export interface LegRow {
  readonly accountId: string;
  readonly direction: 'debit' | 'credit';
  readonly amount: number;
  readonly currency: string;
}

export interface HoldRow {
  readonly id: string;
  readonly amount: number;
  readonly capturedAmount: number;
  readonly status: string;
  readonly expiresAt: string;
  readonly createdAt: string;
}

export interface GapRow {
  readonly number: number;
  readonly openedAt: string;
  readonly refetchRequestedAt?: string;
  readonly overdue: boolean;
}

export interface EventSourceRow {
  readonly source: string;
  readonly lastSequence: number;
  readonly gapsTruncated: boolean;
  readonly gaps: readonly GapRow[];
  readonly waived: readonly { number: number; reason: string; waivedAt: string }[];
}

/** Items of features that may not be in this build: shown only when the table has them. */
export type OptionalRows = readonly Readonly<Record<string, unknown>>[];

export interface AccountPage {
  readonly account: AccountDetail;
  /** The newest JOURNAL_RECORDS_SHOWN records, oldest first. */
  readonly journal: readonly JournalRow[];
  readonly entries: readonly EntryRow[];
  readonly holds: readonly HoldRow[];
  readonly sources: readonly EventSourceRow[];
  readonly pendingCredits: PendingCredits;
  readonly monitors: readonly MonitorRow[];
}

/** A balance monitor of the account (docs/contract.md §28), as its wire shape. */
export interface MonitorRow {
  readonly id: string;
  readonly field: 'balance' | 'available';
  readonly operator: 'lt' | 'lte' | 'gt' | 'gte';
  /** Minor units of the account's currency. */
  readonly value: number;
  readonly description?: string;
  readonly state: 'true' | 'false';
  readonly stateSince: string;
  readonly createdAt: string;
}

export interface DeadLetterRow {
  readonly messageId: string;
  readonly sentAt?: string;
  readonly receiveCount?: number;
  /** `error_code`: the reason the consumer dead-lettered it (docs/contract.md §6). */
  readonly reason?: string;
  readonly detail?: string;
  /** The CloudEvent's type, id and subject when the body is one. */
  readonly type?: string;
  readonly eventId?: string;
  readonly subject?: string;
  readonly body: string;
}

export interface DeadLetterQueue {
  readonly name: string;
  /** Where a redrive sends its messages. */
  readonly target: string;
  readonly approximateCount: number;
  readonly messages: readonly DeadLetterRow[];
}

export interface DeadLetterPage {
  readonly queues: readonly DeadLetterQueue[];
}

export interface OverdueGapRow {
  readonly accountId: string;
  readonly source: string;
  readonly gaps: readonly GapRow[];
}

export interface GapsPage {
  /** Sources with open gaps, those with overdue ones first. */
  readonly sources: readonly OverdueGapRow[];
  readonly overdueAfterSeconds: number;
}

export interface FindingRow {
  readonly accountId: string;
  readonly check: string;
  readonly sequence?: number;
  readonly expected: string;
  readonly actual: string;
  readonly detail: string;
  readonly detectedAt: string;
}

export interface FindingsPage {
  readonly findings: readonly FindingRow[];
}

/** A credit accepted into a deferred account and not posted yet (docs/contract.md §24). */
export interface PendingCreditRow {
  readonly entryId: string;
  readonly type: string;
  readonly amount: number;
  readonly acceptedAt: string;
  readonly effectiveAt: string;
  /** Seconds since it was accepted, when the console read it. */
  readonly ageSeconds: number;
  readonly shard: number;
  readonly reference?: string;
}

export interface PendingCredits {
  /** The oldest PENDING_CREDITS_SHOWN, oldest first. */
  readonly items: readonly PendingCreditRow[];
  /** Pending credits waiting: what the gates accepted less what the folder posted. */
  readonly total: number;
}

/** One account with intake gates, as the intake-lag page lists it. */
export interface IntakeLagRow {
  readonly accountId: string;
  readonly ownerId: string;
  /** The gates' copy of the account's mode (`deferred`; `direct` once it turned back). */
  readonly creditIntake: string;
  readonly shards: number;
  readonly pending: number;
  /** The oldest pending credit's acceptance and its age in seconds; absent: nothing pending. */
  readonly oldestAt?: string;
  readonly oldestAgeSeconds?: number;
}

export interface IntakePage {
  /** Worst first: the oldest pending credit first, accounts with nothing pending last. */
  readonly accounts: readonly IntakeLagRow[];
  /** When the console read it (ages are counted to this). */
  readonly readAt: string;
  /** Items the gate Scan read; `complete` false when it stopped at INTAKE_SCAN_LIMIT. */
  readonly scanned: number;
  readonly complete: boolean;
}

/** `npm run console`'s port unless --port says otherwise (`npm start` serves it on its own). */
export const DEFAULT_CONSOLE_PORT = 3001;
