import { EFFECTIVE_INDEX } from '../../contract/effective-time';
import { ACCOUNT_INDEX } from './account-index';
import { DUE_INDEX } from './due-index';

/** One key attribute of an index: a string or a number. */
export interface IndexKey {
  readonly name: string;
  readonly type: 'S' | 'N';
}

/** A global secondary index of the ledger table. */
export interface TableIndex {
  readonly name: string;
  readonly partitionKey: IndexKey;
  readonly sortKey: IndexKey;
  /** ALL: the index answers without reading the table; KEYS_ONLY: only the keys, no rewrites. */
  readonly projection: 'ALL' | 'KEYS_ONLY';
}

const s = (name: string): IndexKey => ({ name, type: 'S' });

/** The indexes from before the account directory: the sweeper's due work, effective time. */
const BASE_INDEXES: readonly TableIndex[] = [
  // The sweeper's due work (./due-index.ts); ALL: it settles an item without reading it again.
  {
    name: DUE_INDEX.name,
    partitionKey: { name: DUE_INDEX.shardAttribute, type: 'N' },
    sortKey: { name: DUE_INDEX.dueAtAttribute, type: 'N' },
    projection: 'ALL',
  },
  // Entries by effective time per account (§26); ALL: a statement item is the entry.
  {
    name: EFFECTIVE_INDEX.name,
    partitionKey: s(EFFECTIVE_INDEX.accountAttribute),
    sortKey: s(EFFECTIVE_INDEX.keyAttribute),
    projection: 'ALL',
  },
];

/**
 * The console's account directory (./account-index.ts); KEYS_ONLY: balance updates skip it. In
 * the order a deployed table gains them, one per deploy (CloudFormation creates at most one GSI
 * per table update): CDK context `accountDirectoryIndexes` takes the first n (docs/deployment.md
 * "Upgrading to the account directory").
 */
export const DIRECTORY_INDEXES: readonly TableIndex[] = [
  {
    name: ACCOUNT_INDEX.recent,
    partitionKey: s(ACCOUNT_INDEX.shardAttribute),
    sortKey: s(ACCOUNT_INDEX.atAttribute),
    projection: 'KEYS_ONLY',
  },
  {
    name: ACCOUNT_INDEX.owner,
    partitionKey: s(ACCOUNT_INDEX.ownerAttribute),
    sortKey: s(ACCOUNT_INDEX.atAttribute),
    projection: 'KEYS_ONLY',
  },
  {
    name: ACCOUNT_INDEX.name,
    partitionKey: s(ACCOUNT_INDEX.shardAttribute),
    sortKey: s(ACCOUNT_INDEX.nameAttribute),
    projection: 'KEYS_ONLY',
  },
];

/**
 * The ledger table's indexes with the first `directoryIndexes` of {@link DIRECTORY_INDEXES}: the
 * one definition the CDK table (lib/constructs/shared/ledger-table.ts) and the local stack's
 * table (local/services/dynamodb/table.ts) are built from. Each is sparse: only items carrying
 * both key attributes are in it.
 */
export function tableIndexes(directoryIndexes = DIRECTORY_INDEXES.length): readonly TableIndex[] {
  return [...BASE_INDEXES, ...DIRECTORY_INDEXES.slice(0, directoryIndexes)];
}

/** Every index of the ledger table (a fresh stage's, and the local stack's). */
export const TABLE_INDEXES: readonly TableIndex[] = tableIndexes();
