import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import {
  ACCOUNT_CHANGES_ATTRIBUTE,
  ACCOUNT_ITEM_KIND,
  ACCOUNT_METADATA_ITEM_KIND,
} from '../../contract/names';
import type { StreamChange } from '../../domain/journal/model';
import { AccountChanges } from '../../schemas/journal';
import { JOURNAL_FROM_CREATION } from '../accounts/items';

/**
 * What one table stream record means to the journal projector: an account item as an update
 * carrying changes left it (its new image), or something else. On AWS the event source's filter
 * passes only those; locally every record arrives, so the decoder skips the rest.
 */
export function decodeAccountChange(record: DynamoDBRecord): StreamChange {
  const searched = searchChange(record);
  if (searched) return searched;
  const image = record.dynamodb?.NewImage;
  if (record.eventName === 'REMOVE' || !image) return { kind: 'other' };
  // aws-lambda's stream AttributeValue mirrors the SDK's; the SDK type is what unmarshall takes.
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.kind !== ACCOUNT_ITEM_KIND || !(ACCOUNT_CHANGES_ATTRIBUTE in item)) {
    return { kind: 'other' };
  }
  const accountId = String(item.id);
  const changes = AccountChanges.safeParse(item[ACCOUNT_CHANGES_ATTRIBUTE]);
  const version = Number(item.version);
  if (!changes.success) {
    return { kind: 'malformed', accountId, reason: `lastChanges: ${changes.error.message}` };
  }
  if (!Number.isSafeInteger(version) || version < changes.data.length) {
    return { kind: 'malformed', accountId, reason: `version ${String(item.version)}` };
  }
  return {
    kind: 'image',
    image: {
      accountId,
      version,
      balance: Number(item.balance),
      available: Number(item.available ?? item.balance),
      changes: changes.data,
      journalFromCreation: item[JOURNAL_FROM_CREATION] === true,
    },
  };
}

/**
 * What the search indexer re-reads (docs/contract.md §34): an account created (INSERT) and
 * any change of an account's metadata item (removed too: `metadata: null`).
 */
function searchChange(record: DynamoDBRecord): StreamChange | undefined {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const kind = image?.kind?.S;
  const created = kind === ACCOUNT_ITEM_KIND && record.eventName === 'INSERT';
  if (!created && kind !== ACCOUNT_METADATA_ITEM_KIND) return undefined;
  const accountId = image?.id?.S ?? image?.accountId?.S;
  return accountId ? { kind: 'account', accountId } : undefined;
}
