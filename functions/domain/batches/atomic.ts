import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import type { LedgerEntry } from '../accounts/model';
import type {
  CommandContext,
  CommandResponse,
  IdempotentCommands,
  KeyRequest,
} from '../idempotency/idempotent-command';
import type { IdempotencyRecord, StoredResponse } from '../idempotency/model';
import type { ResponsePresenter } from '../idempotency/port';
import { isCreditDirection } from '../intake/model';
import { sums } from '../ledger-transactions/model';
import { IntakeDirectory, MAX_ROUTE_ATTEMPTS } from '../movements/intake';
import type { RejectedLeg } from '../movements/legs';
import { transferMovement } from '../movements/transfer';
import {
  CurrencyMismatchError,
  type DomainError,
  IdempotencyKeyReusedError,
  InternalError,
  LedgerRejection,
  PaymentIdConflictError,
} from '../shared/errors';
import { BatchRejectedError, BatchTooLargeError } from './errors';
import {
  type BatchOperation,
  firstClash,
  itemsOf,
  type OperationResult,
  type PlannedMovement,
} from './model';
import type { BatchPort, BatchPresenter, MovementsRefused, SingleRouteCommands } from './port';
import { firstRefusals } from './refusals';

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
  /** Deferred accounts this process knows of (docs/contract.md §24), as the single routes'. */
  private readonly intake = new IntakeDirectory();

  constructor(
    private readonly port: BatchPort,
    private readonly singles: SingleRouteCommands,
    private readonly commands: IdempotentCommands,
    options: { readonly responses: ResponsePresenter; readonly presenter: BatchPresenter },
  ) {
    this.responses = options.responses;
    this.presenter = options.presenter;
  }

  /** Every operation made ready to write, under its own key in the single route's scope. */
  plan(ctx: CommandContext, operations: readonly BatchOperation[]): PlannedMovement[] {
    return operations.map((operation) =>
      this.planOne({ ...ctx, idempotencyKey: operation.key }, operation),
    );
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

  /** `400 batch_too_large` before anything is claimed: the batch's claim counts too. */
  requireFit(planned: readonly PlannedMovement[]): void {
    const items = itemsOf(planned, 1);
    if (items > MAX_TRANSACTION_ITEMS) throw new BatchTooLargeError(items, MAX_TRANSACTION_ITEMS);
  }

  async run(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
    planned: readonly PlannedMovement[],
    request: KeyRequest,
  ): Promise<CommandResponse> {
    const unbalanced = operations.findIndex(
      (op) => op.op === 'ledger_transaction' && !balanced(op.input.legs),
    );
    const clash = firstClash(planned);
    const limit = Math.min(
      unbalanced < 0 ? operations.length : unbalanced,
      clash ?? operations.length,
    );
    const replays = new Map<number, IdempotencyRecord>();
    const batchClaim = this.commands.claim(ctx, { ...request, resource: undefined, outcome: 'ok' });
    let rerouted = 0;
    for (let attempt = 0; attempt <= operations.length; attempt++) {
      const live = [...planned.keys()].filter((i) => i < limit && !replays.has(i));
      const entries = live.flatMap((i) => (planned[i] as PlannedMovement).legs.map((l) => l.entry));
      const intake = this.intake.routesFor(entries);
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
      const result =
        live.length === 0 && !whole
          ? undefined
          : await this.port.writeMovements(
              live.map((i) => planned[i] as PlannedMovement),
              whole ? { batchClaim: claim, intake } : { probe: true, intake },
            );
      if (result?.kind === 'committed') return { ...claim.response, replayed: false };
      if (result?.batch)
        return this.commands.settle(claim, { kind: 'claimed', record: result.batch }, never);
      if (result && rerouted < MAX_ROUTE_ATTEMPTS && this.rerouted(result, entries)) {
        // An account turned out deferred (or no longer is): the same write, routed again.
        rerouted += 1;
        attempt -= 1;
        continue;
      }
      const found = result ? this.failures(planned, live, result, replays) : undefined;
      if (found === 'replays') continue;
      const failure = found ?? (await this.failureAt(ctx, operations, planned, limit, unbalanced));
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
    for (const [index, error] of firstRefusals(planned, moving, refused.accounts)) {
      failures.push(this.failed(index, error));
    }
    failures.sort((a, b) => a.index - b.index);
    const first = failures[0];
    // A replay's legs were in this write's account guards, so a guard that held may not hold
    // without them: only a failure before the first replay is certain; else write again.
    if (first && first.index < firstReplay) return first;
    return Number.isFinite(firstReplay) ? 'replays' : first;
  }

  /** Whether the refused accounts taught the directory a route these entries take. */
  private rerouted(refused: MovementsRefused, entries: readonly LedgerEntry[]): boolean {
    const rejected: RejectedLeg[] = [];
    for (const [accountId, account] of refused.accounts) {
      const index = entries.findIndex((e) => e.accountId === accountId && isCreditDirection(e));
      if (index >= 0) rejected.push({ index, account, viaGate: refused.viaGate?.has(accountId) });
    }
    return this.intake.learn(entries, rejected);
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

const balanced = (legs: Parameters<typeof sums>[0]): boolean => {
  const { debits, credits } = sums(legs);
  return debits === credits;
};

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
