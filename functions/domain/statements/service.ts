import { EFFECTIVE_SKEW_MS, MAX_STATEMENT_DAYS } from '../../contract/effective-time';
import { accountView, notFound, owned } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import {
  type DomainError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from '../shared/errors';
import type { MetricsPort } from '../shared/metrics';
import { DAY_MS } from '../shared/time';
import { EffectiveReads } from './effective-reads';
import { PendingCreditsError, PeriodAlreadyClosedError } from './errors';
import {
  type EffectiveHistory,
  justAfter,
  monthOf,
  monthStart,
  NO_SUMS,
  nextMonth,
  planStatement,
  type StatementPlan,
  type StatementTotals,
  statementTotals,
} from './model';
import type { EffectiveAccount, StatementPage, StatementPort } from './port';

export interface StatementServiceOptions extends CommandServiceOptions {
  /** Principals that may read any account's balances (docs/contract.md §15, §22). */
  readonly readers: readonly string[];
  /**
   * How long after the projector last added to a day its sums count; a day added to since is
   * read from the index (docs/contract.md §26 "Day sums"). @default 300
   */
  readonly daySumsSettleSeconds?: number;
  /** Counts the edge months read entry by entry (`EffectiveMonthsReadWhole`). */
  readonly metrics?: MetricsPort;
}

export interface EffectiveBalance {
  readonly accountId: string;
  readonly effectiveAt: string;
  readonly balance: number;
}

export interface StatementQuery {
  readonly from: string;
  readonly to: string;
  readonly limit: number;
  readonly cursor?: string;
}

export type Statement = {
  readonly accountId: string;
  readonly currency: string;
  readonly from: string;
  readonly to: string;
} & StatementTotals &
  StatementPage;

/** Reads of an account whose intake mode keeps changing before a period close gives up (503). */
const PERIOD_CLOSE_ATTEMPTS = 5;
/** Reads of the index again while it trails the month sums, before a statement is `503`. */
const INDEX_REREADS = 3;
const utc = (instant: string): string => new Date(instant).toISOString();

/**
 * The books by effective time (docs/contract.md §26): effective balances, statements of a
 * window, and period closes that freeze everything up to an instant.
 */
export class StatementService {
  private readonly commands: IdempotentCommands;
  private readonly readers: ReadonlySet<string>;
  private readonly reads: EffectiveReads;

  constructor(
    private readonly port: StatementPort,
    options: StatementServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
    this.readers = new Set(options.readers);
    this.reads = new EffectiveReads(port, options.daySumsSettleSeconds, options.metrics);
  }

  /** The sum of the posted entries effective at or before `effectiveAt`. */
  async effectiveBalance(
    principal: string,
    accountId: string,
    effectiveAt: string,
    now: Date,
  ): Promise<EffectiveBalance> {
    const at = utc(effectiveAt);
    if (new Date(at).getTime() > now.getTime() + EFFECTIVE_SKEW_MS) {
      throw invalid('query.effectiveAt', 'must not be in the future');
    }
    const { history } = await this.readable(principal, accountId);
    if (at < history.since) throw beforeHistory('query.effectiveAt', history.since);
    const until = justAfter(at);
    const head = { from: monthStart(monthOf(until)), to: until };
    const sums = await this.reads.rangeSums(accountId, history, head, until, now);
    const { openingBalance } = statementTotals(history, { head, fullMonths: [] }, until, [sums]);
    return { accountId, effectiveAt: at, balance: openingBalance };
  }

  /** Opening, totals and closing of `[from, to)`, and one page of its entries. */
  async statement(
    principal: string,
    accountId: string,
    query: StatementQuery,
    now: Date,
  ): Promise<Statement> {
    const from = utc(query.from);
    const to = utc(query.to);
    if (from >= to) throw invalid('query.to', 'must be later than from');
    if (new Date(to).getTime() - new Date(from).getTime() > MAX_STATEMENT_DAYS * DAY_MS) {
      throw invalid('query.to', `must be at most ${MAX_STATEMENT_DAYS} days after from`);
    }
    // Owners only (docs/contract.md §26): journal readers read balances, not statements.
    const { account, history } = await this.readable(principal, accountId, false);
    if (from < history.since) throw beforeHistory('query.from', history.since);
    const plan = planStatement(from, to);
    await this.indexCaughtUp(accountId, history, plan);
    const [head, tail, page] = await Promise.all([
      this.reads.rangeSums(accountId, history, plan.head, from, now),
      plan.tail ? this.reads.rangeSums(accountId, history, plan.tail, from, now) : NO_SUMS,
      this.port.statementItems(accountId, { from, to }, query.limit, query.cursor),
    ]);
    return {
      accountId,
      currency: account.currency,
      from,
      to,
      ...statementTotals(history, plan, from, [head, tail]),
      ...page,
    };
  }

  /**
   * Closes the account's books through `through` (docs/contract.md §26, §36): a read, then the
   * store fences the gates, checks the pending credits and writes the claim and `closedThrough`
   * in ONE transaction, conditioned on the intake mode and shard count read, so the answer's
   * `closedThrough`, `creditIntake` and `intakeShards` are as written (balances as read). The
   * same `through` again answers the account as it is; an earlier one is
   * `period_already_closed`, recorded; a pending credit (§24) effective at or before `through`
   * is `pending_credits`, recorded. A switch of the intake mode meanwhile reads again.
   */
  async closePeriod(
    ctx: CommandContext,
    accountId: string,
    through: string,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.closePeriod,
      pathParameters: { accountId },
      rawBody,
    };
    const key = this.commands.key(ctx, request);
    const instant = utc(through);
    if (new Date(instant).getTime() > ctx.now.getTime()) {
      return this.commands.refuse(key, invalid('body.through', 'must not be later than now'));
    }
    for (let attempt = 1; attempt <= PERIOD_CLOSE_ATTEMPTS; attempt += 1) {
      const read = await this.port.getEffectiveAccount(accountId);
      const account = owned(read?.account, ctx.principal);
      if (!account) return this.commands.refuse(key, notFound('Account'));
      const current = account.closedThrough;
      const closed = accountView({ ...account, closedThrough: instant });
      const claim = this.commands.claim(ctx, { ...request, resource: closed, outcome: 'ok' });
      if (current !== undefined && current > instant) {
        return this.commands.reject(claim, new PeriodAlreadyClosedError(current));
      }
      if (current === instant) return this.commands.answer(claim);
      const result = await this.port.closePeriod(claim, account, instant);
      if (result.kind === 'pending_credits') {
        return this.commands.reject(claim, new PendingCreditsError(instant));
      }
      // Another intake mode, or a concurrent close to the same instant: read again.
      if (result.kind === 'intake_moved') continue;
      if (result.kind === 'account_rejected' && result.account?.closedThrough === instant) continue;
      return this.commands.settle(claim, result, ({ account: now }): DomainError => {
        if (!owned(now, ctx.principal)) return notFound('Account');
        return new PeriodAlreadyClosedError(now?.closedThrough ?? instant);
      });
    }
    throw new UnavailableError(
      undefined,
      `account ${accountId}: its intake mode kept changing during the period close; retry`,
    );
  }

  /**
   * The effective index is eventually consistent (docs/contract.md §31, §36): each full month of
   * the window whose entry count was written with its sums must have that many entries in the
   * index, else the items listed could disagree with the totals. Read again up to 3 times, then
   * `503` (with `Retry-After`): never totals that disagree with the items.
   */
  private async indexCaughtUp(accountId: string, history: EffectiveHistory, plan: StatementPlan) {
    const full = new Set(plan.fullMonths);
    const counted = history.months.filter((m) => full.has(m.month) && m.entries !== undefined);
    for (let read = 0; read <= INDEX_REREADS; read++) {
      const counts = await Promise.all(
        counted.map(({ month }) =>
          this.port.countEffective(accountId, {
            from: monthStart(month),
            to: monthStart(nextMonth(month)),
          }),
        ),
      );
      if (counts.every((count, i) => count >= (counted[i]?.entries ?? 0))) return;
    }
    throw new UnavailableError(
      undefined,
      `The effective-time index of account ${accountId} trails its month sums; retry shortly.`,
    );
  }

  /**
   * The owner's account, or any for a reader of balances when `readers` may read it; else
   * not_found, as if missing.
   */
  private async readable(
    principal: string,
    accountId: string,
    readers = true,
  ): Promise<EffectiveAccount> {
    const read = await this.port.getEffectiveAccount(accountId);
    const reader = readers && this.readers.has(principal);
    if (!read || (read.account.ownerId !== principal && !reader)) {
      throw new NotFoundError('Account not found.');
    }
    return read;
  }
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError(`${path.split('.').at(-1)} ${message}.`, [{ path, message }]);
}

/** An account older than effective dates: its history is complete only from `since`. */
function beforeHistory(path: string, since: string): ValidationError {
  return invalid(
    path,
    `must not be before ${since}: the account's effective history starts there (docs/contract.md §26)`,
  );
}
