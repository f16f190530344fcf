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
import { named, type RouteTable } from '../spec';

const HOLD = named('Hold', Hold);

/** Holds: place, capture, void, read, list (docs/contract.md §11). */
export const HOLD_ROUTES = {
  placeHold: {
    method: 'POST',
    path: '/v1/accounts/{accountId}/holds',
    idempotency: OPERATION_IDS.placeHold,
    summary: 'Place a hold',
    description:
      "Reserves an amount: the account's available balance drops, its balance does not. " +
      'The hold expires after expiresInSeconds unless captured or voided first.',
    tag: 'holds',
    params: AccountPath,
    body: named('PlaceHold', PlaceHoldBody),
    response: { status: 201, description: 'Hold placed', body: HOLD },
    problems: ['insufficient_funds', 'currency_mismatch', 'account_closed'],
  },
  listHolds: {
    method: 'GET',
    path: '/v1/accounts/{accountId}/holds',
    summary: "List an account's holds",
    tag: 'holds',
    params: AccountPath,
    query: ListHoldsQuery,
    response: {
      status: 200,
      description: 'Newest first; status as of now (expired from expiresAt on)',
      body: named('HoldPage', HoldPage),
    },
  },
  getHold: {
    method: 'GET',
    path: '/v1/holds/{holdId}',
    summary: 'Read a hold',
    tag: 'holds',
    params: HoldPath,
    response: {
      status: 200,
      description: 'The hold; status expired from expiresAt on, swept or not',
      body: HOLD,
    },
  },
  captureHold: {
    method: 'POST',
    path: '/v1/holds/{holdId}/captures',
    idempotency: OPERATION_IDS.captureHold,
    summary: 'Capture a hold',
    description:
      'Captures amount (default: all) of an active hold: it leaves the balance (entry type ' +
      'capture), the rest returns to available, in one transaction. At most once per hold.',
    tag: 'holds',
    params: HoldPath,
    body: named('CaptureHold', CaptureHoldBody),
    response: { status: 200, description: 'Hold captured', body: HOLD },
    problems: ['hold_not_active', 'hold_expired'],
  },
  voidHold: {
    method: 'POST',
    path: '/v1/holds/{holdId}/voids',
    idempotency: OPERATION_IDS.voidHold,
    summary: 'Void a hold',
    description: 'Voids an active hold: its amount returns to available. At most once.',
    tag: 'holds',
    params: HoldPath,
    body: named('VoidHold', VoidHoldBody),
    response: { status: 200, description: 'Hold voided', body: HOLD },
    problems: ['hold_not_active', 'hold_expired'],
  },
} as const satisfies RouteTable;
