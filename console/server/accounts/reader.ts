import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { monitorView } from '../../../functions/domain/monitors/model';
import { ValidationError } from '../../../functions/domain/shared/errors';
import { createAccountDirectory } from '../../../functions/dynamodb/accounts/directory';
import { toAccountRecord } from '../../../functions/dynamodb/accounts/items';
import { createLedgerStore } from '../../../functions/dynamodb/accounts/store';
import { createHoldStore } from '../../../functions/dynamodb/holds/store';
import { createJournalStore } from '../../../functions/dynamodb/journal/store';
import { createLedgerTransactionStore } from '../../../functions/dynamodb/ledger-transactions/store';
import { createMonitorStore } from '../../../functions/dynamodb/monitors/store';
import { searchText } from '../../../functions/dynamodb/table/account-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem, getItems } from '../../../functions/dynamodb/table/reads';
import {
  ACCOUNT_ITEMS_SHOWN,
  ACCOUNTS_PER_PAGE,
  type AccountPage,
  type AccountSearch,
  type AccountSummary,
  JOURNAL_RECORDS_SHOWN,
  type LegRow,
} from '../../shared/api';
import type { IntakeReader } from '../intake/intake';
import {
  accountDetail,
  accountSummary,
  entryRow,
  holdRow,
  journalRow,
  legRows,
  sourceRow,
} from './rows';

export interface AccountReaderOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly gapRefetchAfterSeconds: number;
  readonly clock: () => Date;
  /** The pending credits of deferred accounts (../intake). */
  readonly intake: IntakeReader;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a search's pages stand: the owner's accounts first (`owner`, absent once all listed),
 * then the names (`name`). Opaque to the page: base64url JSON.
 */
interface SearchCursor {
  readonly owner?: string;
  readonly ownerDone?: true;
  readonly name?: string;
}

const encodeSearch = (cursor: SearchCursor) =>
  Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

function decodeSearch(cursor: string | undefined): SearchCursor {
  if (cursor === undefined) return {};
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { owner, ownerDone, name } = parsed as Record<string, unknown>;
      if (
        (owner === undefined || typeof owner === 'string') &&
        (ownerDone === undefined || ownerDone === true) &&
        (name === undefined || typeof name === 'string')
      ) {
        return parsed as SearchCursor;
      }
    }
  } catch {
    // Refused below, as any foreign cursor.
  }
  throw new ValidationError('The cursor is not one this search returned: search again.');
}

/**
 * The accounts pages' reads, through the project's own stores (accounts, journal, holds); an
 * operator tool, so nothing is filtered by owner. "Most recent" and the search read the account
 * directory's indexes (functions/dynamodb/accounts/directory.ts), a page at a time, then
 * BatchGet the accounts listed (docs/contract.md §31).
 */
export function createAccountReader(options: AccountReaderOptions) {
  const { client, tableName, clock } = options;
  const ledger = createLedgerStore({ client, tableName });
  const journal = createJournalStore({ client, tableName });
  const holds = createHoldStore({ client, tableName });
  const monitorStore = createMonitorStore({ client, tableName });
  const directory = createAccountDirectory({ client, tableName });
  const transactions = createLedgerTransactionStore({ client, tableName });

  /** The legs of each ledger transaction the shown entries belong to: one read per transaction. */
  async function legsOf(ids: readonly (string | undefined)[]): Promise<Map<string, LegRow[]>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== undefined))];
    const records = await Promise.all(wanted.map((id) => transactions.getLedgerTransaction(id)));
    return new Map(records.flatMap((r) => (r ? [[r.id, legRows(r)] as const] : [])));
  }

  /** The accounts of `ids`, in that order (one BatchGetItem); any gone meanwhile left out. */
  async function summaries(ids: readonly string[]): Promise<AccountSummary[]> {
    if (ids.length === 0) return [];
    const items = await getItems(client, tableName, ids.map(keys.account));
    return items.flatMap((item) => (item ? [accountSummary(toAccountRecord(item))] : []));
  }

  /** The owner's accounts, then the accounts named `query…` owned by someone else. */
  async function findByOwnerOrName(query: string, cursor: SearchCursor): Promise<AccountSearch> {
    const items: AccountSummary[] = [];
    let next: SearchCursor = cursor;
    if (!cursor.ownerDone) {
      const page = await directory.byOwner(query, ACCOUNTS_PER_PAGE, cursor.owner);
      items.push(...(await summaries(page.accountIds)));
      next = page.nextCursor ? { owner: page.nextCursor } : { ownerDone: true };
    }
    const room = ACCOUNTS_PER_PAGE - items.length;
    if (next.ownerDone && room > 0) {
      const page = await directory.byNamePrefix(query, room, cursor.name);
      const named = await summaries(page.accountIds);
      // The owner's own accounts were listed above.
      items.push(...named.filter((a) => searchText(a.ownerId) !== searchText(query)));
      next = page.nextCursor ? { ownerDone: true, name: page.nextCursor } : {};
    }
    const more = next.owner !== undefined || next.name !== undefined;
    return { items, ...(more ? { nextCursor: encodeSearch(next) } : {}) };
  }

  return {
    /**
     * An account id finds that account; anything else is an owner id or the start of a name,
     * either in any case (§31); `cursor` is a `nextCursor` of the same query.
     */
    async search(query: string, cursor?: string): Promise<AccountSearch> {
      const q = query.trim();
      if (!UUID.test(q)) return findByOwnerOrName(q, decodeSearch(cursor));
      const account = await ledger.getAccount(q.toLowerCase());
      return { items: account ? [accountSummary(account)] : [] };
    },

    /** The newest accounts, a page at a time. */
    async recent(cursor?: string): Promise<AccountSearch> {
      const page = await directory.recent(ACCOUNTS_PER_PAGE, cursor);
      return {
        items: await summaries(page.accountIds),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },

    /** Everything the account page shows; undefined when there is no such account. */
    async page(accountId: string): Promise<AccountPage | undefined> {
      if (!UUID.test(accountId)) return undefined;
      const raw = await getItem(client, tableName, keys.account(accountId));
      if (!raw) return undefined;
      const now = clock();
      const account = toAccountRecord(raw);
      const head = await journal.readHead(accountId);
      const after = Math.max(0, (head?.lastSequence ?? 0) - JOURNAL_RECORDS_SHOWN);
      const [records, entries, holdPage, sources, monitors, pendingCredits] = await Promise.all([
        journal.listRecords(accountId, after, JOURNAL_RECORDS_SHOWN),
        ledger.listEntries(accountId, ACCOUNT_ITEMS_SHOWN, undefined),
        holds.listHolds(accountId, ACCOUNT_ITEMS_SHOWN, undefined, () => true),
        ledger.listEventSources(accountId),
        monitorStore.listMonitors(accountId),
        options.intake.pendingCredits(account),
      ]);
      const legs = await legsOf(entries.items.map((e) => e.ledgerTransactionId));
      return {
        account: accountDetail(account, raw),
        journal: records.items.map(journalRow),
        entries: entries.items.map((e) =>
          entryRow(
            e,
            e.ledgerTransactionId === undefined ? undefined : legs.get(e.ledgerTransactionId),
          ),
        ),
        holds: holdPage.items.map((hold) => holdRow(hold, now)),
        sources: sources.map((s) => sourceRow(s, now, options.gapRefetchAfterSeconds)),
        monitors: monitors.map((monitor) => ({ ...monitorView(monitor) })),
        pendingCredits,
      };
    },
  };
}

export type AccountReader = ReturnType<typeof createAccountReader>;
