import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import { unbalancedCurrencies } from '../accounts/ledger-currencies';
import type {
  CommandContext,
  CommandResponse,
  IdempotentCommands,
  KeyRequest,
} from '../idempotency/idempotent-command';
import type { IdempotencyRecord, StoredResponse } from '../idempotency/model';
import type { ResponsePresenter } from '../idempotency/port';
import type { IntakeRoutes } from '../movements/intake';
import { transferMovement } from '../movements/transfer';
import {
  CurrencyMismatchError,
  type DomainError,
  EffectiveTimeRefused,
  IdempotencyKeyReusedError,
  InternalError,
  LedgerRejection,
  PaymentIdConflictError,
  UnavailableError,
} from '../shared/errors';
import { BatchRejectedError, BatchTooLargeError } from './errors';
import {
  type BatchOperation,
  firstClash,
  itemsOf,
  type OperationResult,
  type PlannedMovement,
} from './model';
import type { BatchPresenter, MovementsRefused, SingleRouteCommands } from './port';
import { firstRefusal } from './refusals';
import type { BatchRouting } from './routing';

/** The first operation that fails, with its answer and whether that answer is a recorded one. */
interface Failure {
  readonly index: number;
  readonly response: StoredResponse;
  readonly recorded: boolean;
}

/**
 * An `atomic` batch (docs/contract.md §25): every operation and the batch's own claim commit in
 * ONE transaction, or nothing does. An operation already applied under its key (a replay) is
 * left out of the write and answered as its replay; the first operation that fails makes the
 * whole batch `409 batch_rejected`, and no operation's key is claimed.
 */
export class AtomicBatch {
  private readonly responses: ResponsePresenter;
  private readonly presenter: BatchPresenter;

  constructor(
    private readonly routing: BatchRouting,
    private readonly singles: SingleRouteCommands,
    private readonly commands: IdempotentCommands,
    options: { readonly responses: ResponsePresenter; readonly presenter: BatchPresenter },
  ) {
    this.responses = options.responses;
    this.presenter = options.presenter;
  }

  /**
   * Every operation made ready to write, under its own key in the single route's scope. Called
   * after `refuseEffectiveTimes`: an operation whose `effectiveAt` aged past the limit has a
   * stored key (§31, §36), so it is planned as at its own time — its claim then finds the record
   * and the write answers it as a replay, never moving its money again.
   */
  plan(ctx: CommandContext, operations: readonly BatchOperation[]): PlannedMovement[] {
    return operations.map((operation, position) => {
      const own = { ...ctx, idempotencyKey: operation.key };
      try {
        return { ...this.planOne(own, operation), position };
      } catch (error) {
        const at = Date.parse(operation.input.effectiveAt ?? '');
        if (!(error instanceof EffectiveTimeRefused) || Number.isNaN(at)) throw error;
        return { ...this.planOne({ ...own, now: new Date(at) }, operation), position };
      }
    });
  }

  private planOne(own: CommandContext, operation: BatchOperation): PlannedMovement {
    if (operation.op === 'transfer') {
      const { claim, write } = this.singles.transfers.planTransfer(
        own,
        operation.input,
        operation.rawBody,
      );
      return {
        claim,
        legs: [...transferMovement(write)],
        record: { kind: 'transfer', transfer: write.transfer },
      };
    }
    if (operation.op === 'ledger_transaction') {
      const { claim, write } = this.singles.ledgerTransactions.planLedgerTransaction(
        own,
        operation.input,
        operation.rawBody,
      );
      return {
        claim,
        legs: write.legs,
        record: { kind: 'ledger_transaction', record: write.record },
      };
    }
    const { claim, posting } = this.singles.postings.planPosting(
      own,
      operation.accountId,
      operation.input,
      operation.rawBody,
    );
    return { claim, legs: [posting] };
  }

  /**
   * `400 batch_too_large` before anything is claimed, counted after routing (docs/contract.md
   * §33): the batch's claim counts too. A batch that does not fit as routed so far reads the
   * accounts it credits first: credits into deferred accounts write fewer items.
   */
  async requireFit(planned: readonly PlannedMovement[]): Promise<void> {
    const size = () => itemsOf(planned, 1, this.routing.routesFor(planned));
    if (size() <= MAX_TRANSACTION_ITEMS) return;
    await this.routing.learnAccounts(planned);
    const items = size();
    if (items > MAX_TRANSACTION_ITEMS) throw new BatchTooLargeError(items, MAX_TRANSACTION_ITEMS);
  }

  async run(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
    planned: readonly PlannedMovement[],
    request: KeyRequest,
  ): Promise<CommandResponse> {
    const unbalanced = operations.findIndex(
      (op) => op.op === 'ledger_transaction' && unbalancedCurrencies(op.input).length > 0,
    );
    const clash = firstClash(planned);
    const limit = Math.min(
      unbalanced < 0 ? operations.length : unbalanced,
      clash ?? operations.length,
    );
    const replays = new Map<number, IdempotencyRecord>();
    const batchClaim = this.commands.claim(ctx, { ...request, resource: undefined, outcome: 'ok' });
    for (let attempt = 0; attempt <= operations.length; attempt++) {
      const live = [...planned.keys()].filter((i) => i < limit && !replays.has(i));
      const whole = limit === operations.length;
      const results: OperationResult[] = planned.map((movement, i) => {
        const replay = replays.get(i);
        return {
          key: (operations[i] as BatchOperation).key,
          response: replay ?? movement.claim.response,
          replayed: replay !== undefined,
        };
      });
      const claim = { ...batchClaim, response: this.presenter.batch('atomic', results) };
      const written =
        live.length === 0 && !whole
          ? undefined
          : await this.routing.write(
              live.map((i) => planned[i] as PlannedMovement),
              whole ? { batchClaim: claim } : { probe: true },
            );
      const result = written?.result;
      if (result?.kind === 'committed') return { ...claim.response, replayed: false };
      if (result?.batch)
        return this.commands.settle(claim, { kind: 'claimed', record: result.batch }, never);
      const found =
        result && written
          ? this.failures(planned, live, result, written.intake, replays)
          : undefined;
      if (found === 'replays') continue;
      const failure = found ?? (await this.failureAt(ctx, operations, planned, limit, unbalanced));
      // Never a 5xx as an operation's answer (§31): nothing was applied, the batch may be retried.
      if (failure.response.statusCode >= 500) throw new UnavailableError(failure.response);
      const error = new BatchRejectedError(failure.index, failure.response);
      if (failure.recorded) return this.commands.reject(batchClaim, error);
      throw error;
    }
    throw new InternalError(new Error('an atomic batch kept finding replays'));
  }

  /**
   * The first failing operation a refused write names; `replays` when it found operations
   * applied before under their keys (left out of the next attempt) ahead of any failure it can
   * be sure of; undefined when nothing but the probe failed.
   */
  private failures(
    planned: readonly PlannedMovement[],
    live: readonly number[],
    refused: MovementsRefused,
    intake: IntakeRoutes,
    replays: Map<number, IdempotencyRecord>,
  ): Failure | 'replays' | undefined {
    const failures: Failure[] = [];
    let firstReplay = Number.POSITIVE_INFINITY;
    for (const [position, record] of refused.claimed) {
      const index = live[position] as number;
      const claim = (planned[index] as PlannedMovement).claim;
      if (record.fingerprint !== claim.fingerprint) {
        const reused = this.responses.rejection(new IdempotencyKeyReusedError());
        failures.push({ index, response: reused, recorded: false });
      } else if (record.statusCode >= 300) {
        failures.push({ index, response: record, recorded: true });
      } else {
        replays.set(index, record);
        firstReplay = Math.min(firstReplay, index);
      }
    }
    for (const position of refused.payments) {
      failures.push(this.failed(live[position] as number, new PaymentIdConflictError()));
    }
    // Operations whose key is taken move no money in this write: the walk leaves them out.
    const claimed = new Set([...refused.claimed.keys()].map((position) => live[position]));
    const moving = live.filter((index) => !claimed.has(index));
    const refusal = firstRefusal(planned, moving, refused, intake);
    if (refusal) failures.push(this.failed(refusal.index, refusal.error));
    failures.sort((a, b) => a.index - b.index);
    const first = failures[0];
    // A replay's legs were in this write's account guards, so a guard that held may not hold
    // without them: only a failure before the first replay is certain; else write again.
    if (first && first.index < firstReplay) return first;
    return Number.isFinite(firstReplay) ? 'replays' : first;
  }

  /** Why operation `limit` fails when every operation before it would apply. */
  private async failureAt(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
    planned: readonly PlannedMovement[],
    limit: number,
    unbalanced: number,
  ): Promise<Failure> {
    const operation = operations[limit];
    if (limit === unbalanced && operation?.op === 'ledger_transaction') {
      // The single route refuses it without writing anything: 404 or legs_unbalanced.
      const own = { ...ctx, idempotencyKey: operation.key };
      try {
        const answer = await this.singles.ledgerTransactions.createLedgerTransaction(
          own,
          operation.input,
          operation.rawBody,
        );
        return { index: limit, response: answer, recorded: answer.statusCode >= 300 };
      } catch (error) {
        return this.failed(limit, error as DomainError);
      }
    }
    const movement = planned[limit];
    if (!movement) throw new InternalError(new Error('an atomic batch failed past its end'));
    return this.failed(limit, clashOf(planned.slice(0, limit), movement));
  }

  private failed(index: number, error: DomainError): Failure {
    return {
      index,
      response: this.responses.rejection(error),
      recorded: error instanceof LedgerRejection,
    };
  }
}

/** What a movement that clashes with earlier ones of the batch is refused with. */
function clashOf(earlier: readonly PlannedMovement[], movement: PlannedMovement): DomainError {
  for (const { entry } of movement.legs) {
    const before = earlier
      .flatMap((m) => m.legs)
      .find((leg) => leg.entry.accountId === entry.accountId);
    if (before && before.entry.currency !== entry.currency) {
      return new CurrencyMismatchError(before.entry.currency, entry.currency);
    }
  }
  return new PaymentIdConflictError();
}

const never = (): never => {
  throw new Error('a batch claim reports no rejection');
};
