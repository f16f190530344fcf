import { OPERATION_IDS } from '../../domain/idempotency/operations';
import { AccountPath } from '../../schemas/accounts';
import {
  CaptureHoldBody,
  Hold,
  HoldPage,
  HoldPath,
  ListHoldsQuery,
  PlaceHoldBody,
  VoidHoldBody,
} from '../../schemas/holds';
import { named, type RouteDocs, type RouteTable } from '../spec';

const HOLD = named('Hold', Hold);

/** Holds: place, capture, void, read, list (docs/contract.md §11). */
export const HOLD_ROUTES = {
  placeHold: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/holds',
    idempotency: OPERATION_IDS.placeHold,
    tag: 'holds',
    params: AccountPath,
    body: named('PlaceHold', PlaceHoldBody),
    response: { status: 201, body: HOLD },
    problems: ['insufficient_funds', 'currency_mismatch', 'account_closed'],
  },
  listHolds: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/holds',
    tag: 'holds',
    params: AccountPath,
    query: ListHoldsQuery,
    response: {
      status: 200,
      body: named('HoldPage', HoldPage),
    },
  },
  getHold: {
    method: 'GET',
    path: '/v1/holds/{holdId}',
    tag: 'holds',
    params: HoldPath,
    response: {
      status: 200,
      body: HOLD,
    },
  },
  captureHold: {
    method: 'POST',
    path: '/v1/holds/{holdId}/captures',
    idempotency: OPERATION_IDS.captureHold,
    tag: 'holds',
    params: HoldPath,
    body: named('CaptureHold', CaptureHoldBody),
    response: { status: 200, body: HOLD },
    problems: ['hold_not_active', 'hold_expired'],
  },
  voidHold: {
    method: 'POST',
    path: '/v1/holds/{holdId}/voids',
    idempotency: OPERATION_IDS.voidHold,
    tag: 'holds',
    params: HoldPath,
    body: named('VoidHold', VoidHoldBody),
    response: { status: 200, body: HOLD },
    problems: ['hold_not_active', 'hold_expired'],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of HOLD_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const holdRouteDocs = (): RouteDocs<typeof HOLD_ROUTES> => ({
  placeHold: {
    summary: 'Place a hold',
    description:
      "Reserves an amount: the account's available balance drops, its balance does not. " +
      'The hold expires after expiresInSeconds unless captured or voided first.',
    response: 'Hold placed',
  },
  listHolds: {
    summary: "List an account's holds",
    response: 'Newest first; status as of now (expired from expiresAt on)',
  },
  getHold: {
    summary: 'Read a hold',
    response: 'The hold; status expired from expiresAt on, swept or not',
  },
  captureHold: {
    summary: 'Capture a hold',
    description:
      'Captures amount (default: all) of an active hold: it leaves the balance (entry type ' +
      'capture), the rest returns to available, in one transaction. At most once per hold.',
    response: 'Hold captured',
  },
  voidHold: {
    summary: 'Void a hold',
    description: 'Voids an active hold: its amount returns to available. At most once.',
    response: 'Hold voided',
  },
});
