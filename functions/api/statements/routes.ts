import type { StatementService } from '../../domain/statements/service';
import type { RouteHandlers } from '../router';
import type { STATEMENT_ROUTES } from './spec';

/** Statements and period closes (docs/contract.md §26): the spec parsed the input. */
export function statementHandlers(
  service: StatementService,
  clock: () => Date,
): RouteHandlers<typeof STATEMENT_ROUTES> {
  return {
    getStatement: ({ principal, params, query }) =>
      service.statement(principal, params.accountId, query, clock()),
    closePeriod: ({ params, command }) =>
      service.closePeriod(command.ctx, params.accountId, command.input.through, command.body),
  };
}
