import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { GAP_REQUEST_ITEM_KIND } from '../../contract/gaps';
import type { RefetchEvent, RefetchRequest, SourceRef } from '../../domain/gaps/port';
import { toAttributes } from '../table/attributes';
import { dueIndexAttributes } from '../table/due-index';
import { keys } from '../table/keys';

/**
 * A committed re-fetch request (docs/contract.md §18): new only (`attribute_not_exists`), in the
 * due index at `republishAt` until it is marked published, carrying the event as published.
 */
export function gapRequestItem(
  tableName: string,
  request: RefetchRequest,
  event: RefetchEvent,
  republishAt: number,
): TransactWriteItem {
  const key = keys.gapRequest(request.id);
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...key,
        kind: GAP_REQUEST_ITEM_KIND,
        requestId: request.id,
        accountId: request.accountId,
        source: request.source,
        missing: [...request.missing],
        openedAt: request.openedAt,
        requestedAt: request.requestedAt,
        event: JSON.stringify(event),
        ...dueIndexAttributes(request.id, new Date(republishAt)),
      }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The sequence item a due item names: its attributes, else its key (`ACCOUNT#<id>`). */
export function toSourceRef(attributes: Readonly<Record<string, unknown>>): SourceRef {
  const fromKey = String(attributes.pk ?? '').replace(/^ACCOUNT#/, '');
  return {
    accountId: typeof attributes.accountId === 'string' ? attributes.accountId : fromKey,
    source: String(attributes.source),
  };
}

export function toGapRequest(attributes: Readonly<Record<string, unknown>>): {
  id: string;
  event: RefetchEvent;
} {
  return {
    id: String(attributes.requestId),
    event: JSON.parse(String(attributes.event)) as RefetchEvent,
  };
}
