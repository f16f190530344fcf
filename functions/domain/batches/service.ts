import type { BatchMode } from '../../contract/batches';
import type { EffectiveTimeOptions } from '../accounts/effective-at';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import type { StoredResponse } from '../idempotency/model';
import { OPERATION_IDS } from '../idempotency/operations';
import type { ClaimKey, ResponsePresenter } from '../idempotency/port';
import { IntakeDirectory } from '../movements/intake';
import { DomainError, IdempotencyKeyInUseError, UnavailableError } from '../shared/errors';
import { currentInvocation } from '../shared/invocation';
import { currentDeadline, withDeadline } from '../shared/retry';
import { AtomicBatch } from './atomic';
import { batchTimes, retryAfterOf } from './deadline';
import {
  type BatchOperation,
  coalesce,
  type OperationResult,
  type PlannedMovement,
  planApart,
  refuseEffectiveTimes,
  singleRequest,
} from './model';
import type { BatchLease, BatchPort, BatchPresenter, SingleRouteCommands } from './port';
import { BatchRouting } from './routing';

export interface BatchServiceOptions extends CommandServiceOptions, EffectiveTimeOptions {
  readonly presenter: BatchPresenter;
  /** Epoch ms: the batch's one deadline is measured with it. */
  readonly now: () => number;
  /**
   * What this process knows of deferred accounts (docs/contract.md §24): the single routes'
   * directory when the composition shares it. @default a directory of the batches' own
   */
  readonly intake?: IntakeDirectory;
}

export interface BatchInput {
  readonly mode: BatchMode;
  readonly operations: readonly BatchOperation[];
}

/** `POST /v1/batches` (docs/contract.md §25): many operations, each exactly once. */
export class BatchService {
  private readonly commands: IdempotentCommands;
  private readonly responses: ResponsePresenter;
  private readonly atomic: AtomicBatch;
  private readonly routing: BatchRouting;

  constructor(
    private readonly port: BatchPort,
    private readonly singles: SingleRouteCommands,
    private readonly options: BatchServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
    this.responses = options.responses;
    this.routing = new BatchRouting(port, options.intake ?? new IntakeDirectory());
    this.atomic = new AtomicBatch(this.routing, singles, this.commands, options);
  }

  /**
   * The batch's own key first (a replay answers the stored bytes; another body is
   * `idempotency_key_reused`), then its operations under one deadline. An `independent` batch
   * runs them under a lease of its key and records its answer once every operation has its own;
   * an `atomic` one needs no lease: its claim commits in the one transaction of its operations,
   * so of two copies only one can commit, and the other replays it.
   */
  async createBatch(
    ctx: CommandContext,
    batch: BatchInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.createBatch, pathParameters: {}, rawBody };
    const key = this.commands.key(ctx, request);
    const known = await this.commands.replayed(key);
    if (known) return known;
    await refuseEffectiveTimes(batch.operations, ctx.now, this.options.backdateLimitDays, (op) =>
      this.commands.stored({ ...ctx, idempotencyKey: op.key }, singleRequest(op)),
    );
    const planned = batch.mode === 'atomic' ? this.atomic.plan(ctx, batch.operations) : [];
    if (batch.mode === 'atomic') await this.atomic.requireFit(planned);
    const started = this.options.now();
    const { deadline, leaseExpiresAtMs } = batchTimes(
      started,
      currentInvocation(),
      currentDeadline(),
    );
    if (batch.mode === 'atomic') {
      return withDeadline(deadline, () => this.atomic.run(ctx, batch.operations, planned, request));
    }
    const lease = {
      scopeId: key.scopeId,
      token: this.commands.newId(),
      expiresAtMs: leaseExpiresAtMs,
    };
    return this.underLease(key, lease, started, () =>
      withDeadline(deadline, async () => {
        const results = await this.independent(ctx, batch.operations);
        const claim = this.commands.claim(ctx, { ...request, resource: undefined, outcome: 'ok' });
        return this.commands.answer({
          ...claim,
          response: this.options.presenter.batch('independent', results),
        });
      }),
    );
  }

  /**
   * Runs `run` holding the batch's lease (docs/contract.md §25). A copy that finds a live lease
   * replays the holder's answer if it was just recorded, else answers `idempotency_key_in_use`
   * with `Retry-After` the lease's remaining seconds (§31). The holder reads the record once
   * more (a copy may have answered between the first read and the lease), and releases the lease once the answer is recorded, or the run
   * failed: either way no operation of it runs any more.
   */
  private async underLease(
    key: ClaimKey,
    lease: BatchLease,
    nowMs: number,
    run: () => Promise<CommandResponse>,
  ): Promise<CommandResponse> {
    const taken = await this.port.takeLease(lease, nowMs);
    if (taken.kind === 'held') {
      const answered = await this.commands.replayed(key);
      if (answered) return answered;
      throw new IdempotencyKeyInUseError(undefined, retryAfterOf(taken.expiresAtMs, nowMs));
    }
    try {
      return (await this.commands.replayed(key)) ?? (await run());
    } finally {
      await this.release(lease);
    }
  }

  /**
   * A lease left behind only delays a retry until it expires, and a copy that finds it reads
   * the recorded answer first: a failed release must not replace the batch's answer.
   */
  private async release(lease: BatchLease): Promise<void> {
    try {
      await this.port.releaseLease(lease);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }

  /**
   * Request order (docs/contract.md §25): consecutive credits and debits form a segment, whose
   * accounts are written side by side, each account's postings in order and coalesced into
   * shared transactions; a transfer or ledger transaction is applied alone, in its place.
   */
  private async independent(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
  ): Promise<OperationResult[]> {
    const results: OperationResult[] = new Array(operations.length);
    let segment: number[] = [];
    const flush = async () => {
      await this.postSegment(ctx, operations, segment, results);
      segment = [];
    };
    for (const [index, operation] of operations.entries()) {
      if (operation.op === 'credit' || operation.op === 'debit') {
        segment.push(index);
        continue;
      }
      await flush();
      results[index] = await this.alone(ctx, operation, index);
    }
    await flush();
    return results;
  }

  /** The postings of a segment: per account, in order, in chunks of one transaction each. */
  private async postSegment(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
    segment: readonly number[],
    results: OperationResult[],
  ): Promise<void> {
    const byAccount = new Map<string, number[]>();
    for (const index of segment) {
      const operation = operations[index];
      if (operation?.op !== 'credit' && operation?.op !== 'debit') continue;
      byAccount.set(operation.accountId, [...(byAccount.get(operation.accountId) ?? []), index]);
    }
    await Promise.all(
      [...byAccount.values()].map(async (all) => {
        const { indexes, planned, aged } = planApart(all, (i) =>
          this.planPosting(ctx, operations, i),
        );
        // Their time aged since a first attempt (§31): each replays through its single route.
        for (const index of aged)
          results[index] = await this.alone(ctx, operations[index] as BatchOperation, index);
        for (const chunk of coalesce(planned, this.routing.routesFor(planned))) {
          const written = await this.writeChunk(chunk.map((i) => planned[i] as PlannedMovement));
          for (const i of chunk) {
            const index = indexes[i] as number;
            const operation = operations[index] as BatchOperation;
            results[index] = written
              ? {
                  key: operation.key,
                  response: (planned[i] as PlannedMovement).claim.response,
                  replayed: false,
                }
              : await this.alone(ctx, operation, index);
          }
        }
      }),
    );
  }

  /**
   * ONE transaction for a chunk of one account's postings, routed as a single credit is
   * (docs/contract.md §25). False: nothing was written (a replay, a reused key, a refusal,
   * contention to the end), so each is applied on its own.
   */
  private async writeChunk(chunk: readonly PlannedMovement[]): Promise<boolean> {
    if (chunk.length < 2 || this.pastDeadline()) return false;
    try {
      return (await this.routing.write(chunk, {})).result.kind === 'committed';
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
  }

  private planPosting(
    ctx: CommandContext,
    operations: readonly BatchOperation[],
    position: number,
  ): PlannedMovement {
    const operation = operations[position];
    if (operation?.op !== 'credit' && operation?.op !== 'debit') {
      throw new Error('a posting segment holds credits and debits only');
    }
    const { claim, posting } = this.singles.postings.planPosting(
      { ...ctx, idempotencyKey: operation.key },
      operation.accountId,
      operation.input,
      operation.rawBody,
    );
    return { claim, legs: [posting], position };
  }

  /**
   * One operation through its single route's command, under its own key: its answer, a
   * refusal rendered as that route renders it, or `503` once the batch's deadline has passed.
   * It keeps its `index` in the batch, so its entries list in request order (§36).
   */
  private async alone(
    ctx: CommandContext,
    operation: BatchOperation,
    index: number,
  ): Promise<OperationResult> {
    const own = { ...ctx, idempotencyKey: operation.key, operationIndex: index };
    try {
      if (this.pastDeadline())
        throw new UnavailableError(
          undefined,
          'The batch ran out of time before this operation; retry it.',
        );
      const response = await this.single(own, operation);
      return {
        key: operation.key,
        response: { statusCode: response.statusCode, body: response.body },
        replayed: response.replayed,
      };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { key: operation.key, response: this.refusal(error), replayed: false };
    }
  }

  /**
   * A refusal as the single route renders it, but never a 5xx other than `503` (docs/contract.md
   * §31): the single route recorded nothing for it, so it stands as `503 unavailable`, which
   * says "not applied, retry under its own key" — a retry replays it if it did apply.
   */
  private refusal(error: DomainError): StoredResponse {
    const response = this.responses.rejection(error);
    if (response.statusCode < 500 || response.statusCode === 503) return response;
    return this.responses.rejection(
      new UnavailableError(error, 'This operation failed unexpectedly; retry it under its key.'),
    );
  }

  private single(ctx: CommandContext, operation: BatchOperation): Promise<CommandResponse> {
    switch (operation.op) {
      case 'credit':
      case 'debit':
        return this.singles.postings.postTransaction(
          ctx,
          operation.accountId,
          operation.input,
          operation.rawBody,
        );
      case 'transfer':
        return this.singles.transfers.createTransfer(ctx, operation.input, operation.rawBody);
      case 'ledger_transaction':
        return this.singles.ledgerTransactions.createLedgerTransaction(
          ctx,
          operation.input,
          operation.rawBody,
        );
    }
  }

  private pastDeadline(): boolean {
    const deadline = currentDeadline();
    return deadline !== undefined && this.options.now() >= deadline;
  }
}
