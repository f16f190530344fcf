import { randomUUID } from 'node:crypto';
import {
  type AccountSnapshot,
  isDone,
  NOTHING_MOVED,
  type OwnedKind,
  REOWN_LEASE_SECONDS,
  REOWN_STEPS,
  type ReownCheckpoint,
  type ReownEvent,
  type ReownLease,
  type ReownRefusal,
  type ReownRequest,
} from './model';
import type { ReownPort } from './port';

export type ReownOutcome =
  | { readonly kind: 'done'; readonly checkpoint: ReownCheckpoint; readonly resumed: boolean }
  | { readonly kind: 'refused'; readonly refusal: ReownRefusal }
  /** Stopped between two pages (Ctrl-C); running the same command again resumes. */
  | { readonly kind: 'interrupted'; readonly checkpoint: ReownCheckpoint };

export interface ReownServiceOptions {
  readonly clock?: () => Date;
  /** Accounts per transaction: DynamoDB allows 100 items, one is the checkpoint. @default 99 */
  readonly accountsPerTransaction?: number;
  /** The run's lease id. @default randomUUID */
  readonly newId?: () => string;
  /** @default REOWN_LEASE_SECONDS */
  readonly leaseSeconds?: number;
}

type Advance =
  | { readonly checkpoint: ReownCheckpoint; readonly seen?: number }
  | { readonly refusal: ReownRefusal };

/**
 * Moves an account and everything under it to another owner (docs/operations.md): holds,
 * tasks (a checkpointed scan of the table), transfers, ledger transactions, then the accounts in
 * one transaction.
 * Every item move is idempotent (`ownerId = to`, only while it is `from`), and the checkpoint
 * is saved after every page, so a run that stops anywhere is resumed by running it again; a
 * finished run run again moves nothing (and repairs anything a one-item re-own left behind).
 * A run holds the lease of its old owner throughout (docs/contract.md §30): two runs never
 * move one owner's items at once, so none can end split between two new owners.
 */
export class ReownService {
  private readonly clock: () => Date;
  private readonly perTransaction: number;
  private readonly newId: () => string;
  private readonly leaseMs: number;

  constructor(
    private readonly port: ReownPort,
    options: ReownServiceOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.perTransaction = options.accountsPerTransaction ?? 99;
    this.newId = options.newId ?? randomUUID;
    this.leaseMs = (options.leaseSeconds ?? REOWN_LEASE_SECONDS) * 1000;
  }

  async run(
    request: ReownRequest,
    onEvent: (event: ReownEvent) => void = () => {},
    signal?: AbortSignal,
  ): Promise<ReownOutcome> {
    const stored = await this.port.readCheckpoint(request.accountId);
    const resumed = stored !== undefined && !isDone(stored);
    let checkpoint: ReownCheckpoint;
    if (stored && resumed) {
      if (stored.to !== request.to) return refused({ kind: 'other_run', to: stored.to });
      checkpoint = stored;
    } else {
      const plan = await this.plan(request);
      if ('refusal' in plan) return refused(plan.refusal);
      const at = this.clock().toISOString();
      checkpoint = {
        accountId: request.accountId,
        from: plan.from,
        to: request.to,
        accounts: plan.accounts,
        step: 0,
        catchUp: false,
        moved: NOTHING_MOVED,
        startedAt: at,
        updatedAt: at,
        version: (stored?.version ?? 0) + 1,
      };
    }
    const runId = this.newId();
    const lease = await this.lease(checkpoint, runId);
    if ('refusal' in lease) return refused(lease.refusal);
    try {
      if (resumed) onEvent({ kind: 'resumed', checkpoint });
      else if (await this.port.saveCheckpoint(checkpoint)) onEvent({ kind: 'planned', checkpoint });
      else return refused({ kind: 'concurrent_run' });
      return await this.steps(checkpoint, runId, resumed, onEvent, signal);
    } finally {
      await this.port.releaseLease(lease.lease);
    }
  }

  /** Every step from `checkpoint` on, renewing the lease before each. */
  private async steps(
    from: ReownCheckpoint,
    runId: string,
    resumed: boolean,
    onEvent: (event: ReownEvent) => void,
    signal: AbortSignal | undefined,
  ): Promise<ReownOutcome> {
    let checkpoint = from;
    while (!isDone(checkpoint)) {
      if (signal?.aborted) return { kind: 'interrupted', checkpoint };
      const step = REOWN_STEPS[checkpoint.step];
      if (!step) break;
      const renewed = await this.lease(checkpoint, runId);
      if ('refusal' in renewed) return refused(renewed.refusal);
      const next =
        step.phase === 'accounts'
          ? await this.moveAccounts(checkpoint)
          : await this.movePage(checkpoint, step.phase);
      if ('refusal' in next) return refused(next.refusal);
      const before = checkpoint;
      checkpoint = next.checkpoint;
      if (step.phase === 'accounts') {
        if (checkpoint.step !== before.step) onEvent({ kind: 'accounts_moved', checkpoint });
      } else {
        const moved = checkpoint.moved[step.phase] - before.moved[step.phase];
        onEvent({ kind: 'page', step, seen: next.seen ?? 0, moved, checkpoint });
      }
    }
    onEvent({ kind: 'done', checkpoint });
    return { kind: 'done', checkpoint, resumed };
  }

  /** Takes or renews the lease of the run's old owner; refused while another run holds it. */
  private async lease(
    checkpoint: ReownCheckpoint,
    runId: string,
  ): Promise<{ lease: ReownLease } | { refusal: ReownRefusal }> {
    const now = this.clock();
    const lease: ReownLease = {
      from: checkpoint.from,
      to: checkpoint.to,
      runId,
      expiresAt: new Date(now.getTime() + this.leaseMs).toISOString(),
    };
    const taken = await this.port.takeLease(lease, now.toISOString());
    return taken.kind === 'taken'
      ? { lease }
      : { refusal: { kind: 'lease_held', lease: taken.lease } };
  }

  /**
   * The account and, through transfers and ledger transactions, every account of the same owner
   * linked to it. Linked
   * accounts already owned by `to` need nothing; any other owner is a refusal.
   */
  private async plan(
    request: ReownRequest,
  ): Promise<{ accounts: AccountSnapshot[]; from: string } | { refusal: ReownRefusal }> {
    const root = await this.port.getAccount(request.accountId);
    if (!root) return { refusal: { kind: 'unknown_account', accountId: request.accountId } };
    const accounts = [root];
    const foreign: AccountSnapshot[] = [];
    const seen = new Set([root.id]);
    for (let i = 0; i < accounts.length; i++) {
      const id = accounts[i]?.id ?? '';
      for (const other of await this.port.linkedAccounts(id)) {
        if (seen.has(other)) continue;
        seen.add(other);
        const account = await this.port.getAccount(other);
        if (!account || account.ownerId === request.to) continue;
        if (account.ownerId === root.ownerId) accounts.push(account);
        else foreign.push(account);
      }
    }
    if (foreign.length > 0) return { refusal: { kind: 'foreign_links', accounts: foreign } };
    if (accounts.length > 1 && !request.withLinked) {
      return { refusal: { kind: 'linked_accounts', accounts: accounts.slice(1) } };
    }
    return { accounts, from: root.ownerId };
  }

  /** One page of `kind`; the step advances once its cursor runs out. */
  private async movePage(checkpoint: ReownCheckpoint, kind: OwnedKind): Promise<Advance> {
    const ids = checkpoint.accounts.map((a) => a.id);
    const move = { from: checkpoint.from, to: checkpoint.to };
    const page = await this.port.moveOwned(kind, ids, move, checkpoint.cursor);
    const finished = page.cursor === undefined;
    const next: ReownCheckpoint = {
      ...this.advanced(checkpoint, finished, page.cursor, checkpoint.catchUp),
      moved: { ...checkpoint.moved, [kind]: checkpoint.moved[kind] + page.moved },
    };
    return (await this.port.saveCheckpoint(next))
      ? { checkpoint: next, seen: page.seen }
      : { refusal: { kind: 'concurrent_run' } };
  }

  /**
   * The accounts, in transactions of up to `perTransaction`, each with the checkpoint. First on
   * condition that nothing changed under them since the plan; if something did, they move anyway
   * and pass 2 catches up what the old owner created meanwhile.
   */
  private async moveAccounts(checkpoint: ReownCheckpoint): Promise<Advance> {
    const start = Number(checkpoint.cursor ?? 0);
    const chunk = checkpoint.accounts.slice(start, start + this.perTransaction);
    const end = start + chunk.length;
    const finished = end >= checkpoint.accounts.length;
    const moves = chunk.filter((a) => a.ownerId !== checkpoint.to).length;
    const next = (catchUp: boolean): ReownCheckpoint => ({
      ...this.advanced(checkpoint, finished, finished ? undefined : String(end), catchUp),
      moved: { ...checkpoint.moved, accounts: checkpoint.moved.accounts + moves },
    });
    const move = { from: checkpoint.from, to: checkpoint.to };
    // The checkpoint returned is exactly the one the transaction wrote.
    let written = next(checkpoint.catchUp);
    const unchanged = !written.catchUp;
    let result = await this.port.moveAccounts(chunk, { ...move, unchanged }, written);
    if (result.kind === 'changed') {
      written = next(true);
      result = await this.port.moveAccounts(chunk, { ...move, unchanged: false }, written);
    }
    if (result.kind === 'owner_changed') {
      return { refusal: { kind: 'owner_changed', account: result.account } };
    }
    if (result.kind !== 'moved') return { refusal: { kind: 'concurrent_run' } };
    return { checkpoint: written };
  }

  /** The checkpoint one page further: the same step at `cursor`, or the next step that runs. */
  private advanced(
    checkpoint: ReownCheckpoint,
    finished: boolean,
    cursor: string | undefined,
    catchUp: boolean,
  ): ReownCheckpoint {
    let step = checkpoint.step;
    if (finished) {
      step += 1;
      // Pass 2 only catches up after a change during pass 1.
      if (!catchUp && REOWN_STEPS[step]?.pass === 2) step = REOWN_STEPS.length;
    }
    const { cursor: _previous, ...rest } = checkpoint;
    return {
      ...rest,
      step,
      ...(finished || cursor === undefined ? {} : { cursor }),
      catchUp,
      updatedAt: this.clock().toISOString(),
      version: checkpoint.version + 1,
    };
  }
}

const refused = (refusal: ReownRefusal): ReownOutcome => ({ kind: 'refused', refusal });
