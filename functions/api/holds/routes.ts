import type { HoldService } from '../../domain/holds/service';
import { AccountPath } from '../../schemas/accounts';
import {
  CaptureHoldBody,
  HoldPath,
  ListHoldsQuery,
  PlaceHoldBody,
  VoidHoldBody,
} from '../../schemas/holds';
import { commandInput, commandResult } from '../commands';
import { principalOf } from '../principal';
import { parseWith } from '../request';
import { json } from '../respond';
import type { Route, RouteRequest } from '../router';

const holdId = (request: RouteRequest) =>
  parseWith(HoldPath, request.pathParameters, 'path').holdId;

/** Holds: place, capture, void, read, list (docs/contract.md §11). */
export function holdRoutes(service: HoldService, clock: () => Date): Route[] {
  return [
    {
      key: 'POST /v1/accounts/{accountId}/holds',
      handle: async (request) => {
        principalOf(request.event);
        const { accountId } = parseWith(AccountPath, request.pathParameters, 'path');
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(PlaceHoldBody, body, 'body');
        return commandResult(await service.placeHold(ctx, accountId, input, body));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}/holds',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const { accountId } = parseWith(AccountPath, request.pathParameters, 'path');
        const query = parseWith(ListHoldsQuery, request.event.queryStringParameters ?? {}, 'query');
        return json(200, await service.listHolds(principal, accountId, query, clock()));
      },
    },
    {
      key: 'GET /v1/holds/{holdId}',
      handle: async (request) => {
        const principal = principalOf(request.event);
        return json(200, await service.getHold(principal, holdId(request), clock()));
      },
    },
    {
      key: 'POST /v1/holds/{holdId}/captures',
      handle: async (request) => {
        principalOf(request.event);
        const id = holdId(request);
        const { ctx, body } = commandInput(request, clock());
        const input = parseWith(CaptureHoldBody, body, 'body');
        return commandResult(await service.capture(ctx, id, input.amount, body));
      },
    },
    {
      key: 'POST /v1/holds/{holdId}/voids',
      handle: async (request) => {
        principalOf(request.event);
        const id = holdId(request);
        const { ctx, body } = commandInput(request, clock());
        parseWith(VoidHoldBody, body, 'body');
        return commandResult(await service.void(ctx, id, body));
      },
    },
  ];
}
