import { type AttributeValue, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { ACCOUNT_ITEM_KIND } from '../../../functions/contract/names';
import { monitorView } from '../../../functions/domain/monitors/model';
import { toAccountRecord } from '../../../functions/dynamodb/accounts/items';
import { createLedgerStore } from '../../../functions/dynamodb/accounts/store';
import { createHoldStore } from '../../../functions/dynamodb/holds/store';
import { createJournalStore } from '../../../functions/dynamodb/journal/store';
import { createLedgerTransactionStore } from '../../../functions/dynamodb/ledger-transactions/store';
import { createMonitorStore } from '../../../functions/dynamodb/monitors/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { storageError } from '../../../functions/dynamodb/table/sdk-errors';
import {
  ACCOUNT_ITEMS_SHOWN,
  ACCOUNT_SCAN_LIMIT,
  type AccountPage,
  type AccountSearch,
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

/** An owner id equal to the query, or a name starting with it, compared case-insensitively. */
export function matches(account: { ownerId: string; name?: string }, query: string): boolean {
  const q = query.toLocaleLowerCase('en');
  return (
    account.ownerId.toLocaleLowerCase('en') === q ||
    (account.name ?? '').toLocaleLowerCase('en').startsWith(q)
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Accounts the "recent" list shows. */
const RECENT = 20;

/**
 * The accounts pages' reads, through the project's own stores (accounts, journal, holds); an
 * operator tool, so nothing is filtered by owner. Finding by owner or listing recent accounts
 * is a bounded Scan: the table has no owner index (docs/console.md says what it costs).
 */
export function createAccountReader(options: AccountReaderOptions) {
  const { client, tableName, clock } = options;
  const ledger = createLedgerStore({ client, tableName });
  const journal = createJournalStore({ client, tableName });
  const holds = createHoldStore({ client, tableName });
  const monitorStore = createMonitorStore({ client, tableName });
  const transactions = createLedgerTransactionStore({ client, tableName });

  /** The legs of each ledger transaction the shown entries belong to: one read per transaction. */
  async function legsOf(ids: readonly (string | undefined)[]): Promise<Map<string, LegRow[]>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== undefined))];
    const records = await Promise.all(wanted.map((id) => transactions.getLedgerTransaction(id)));
    return new Map(records.flatMap((r) => (r ? [[r.id, legRows(r)] as const] : [])));
  }

  async function scanAccounts(query: string | undefined): Promise<AccountSearch> {
    const found: Record<string, unknown>[] = [];
    let scanned = 0;
    let start: Record<string, AttributeValue> | undefined;
    try {
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: '#kind = :kind',
            ExpressionAttributeNames: { '#kind': 'kind' },
            ExpressionAttributeValues: marshall({ ':kind': ACCOUNT_ITEM_KIND }),
            Limit: Math.min(1000, ACCOUNT_SCAN_LIMIT - scanned),
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        scanned += page.ScannedCount ?? 0;
        for (const raw of page.Items ?? []) found.push(unmarshall(raw));
        start = page.LastEvaluatedKey;
      } while (start && scanned < ACCOUNT_SCAN_LIMIT);
    } catch (error) {
      throw storageError(error);
    }
    const items = found
      .map((item) => accountSummary(toAccountRecord(item)))
      .filter((account) => query === undefined || matches(account, query))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return {
      items: query === undefined ? items.slice(0, RECENT) : items,
      scanned,
      complete: start === undefined,
    };
  }

  return {
    /**
     * An account id finds that account; anything else is an owner id or the start of a name,
     * either in any case (§31).
     */
    async search(query: string): Promise<AccountSearch> {
      const q = query.trim();
      if (!UUID.test(q)) return scanAccounts(q);
      const account = await ledger.getAccount(q);
      return { items: account ? [accountSummary(account)] : [], scanned: 1, complete: true };
    },

    /** The newest accounts the bounded Scan saw. */
    recent: () => scanAccounts(undefined),

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
