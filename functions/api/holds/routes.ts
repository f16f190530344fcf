import type { HoldService } from '../../domain/holds/service';
import type { RouteHandlers } from '../router';
import type { HOLD_ROUTES } from './spec';

/** Holds: place, capture, void, read, list (docs/contract.md §11). */
export function holdHandlers(
  service: HoldService,
  clock: () => Date,
): RouteHandlers<typeof HOLD_ROUTES> {
  return {
    placeHold: ({ params, command }) =>
      service.placeHold(command.ctx, params.accountId, command.input, command.body),
    listHolds: ({ principal, params, query }) =>
      service.listHolds(principal, params.accountId, query, clock()),
    getHold: ({ principal, params }) => service.getHold(principal, params.holdId, clock()),
    captureHold: ({ params, command }) =>
      service.capture(command.ctx, params.holdId, command.input.amount, command.body),
    voidHold: ({ params, command }) => service.void(command.ctx, params.holdId, command.body),
  };
}
