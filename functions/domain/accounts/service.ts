import type { EventSourceView } from '../gaps/port';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { IdempotencyClaim } from '../idempotency/port';
import { requestOnce, requestRefusal } from '../movements/once';
import { httpActor, newPosting, type PostingInput, type PostingWrite } from '../movements/posting';
import { MovingService } from '../movements/service';
import { AccountNotEmptyError, InternalError, UnavailableError } from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import type { EffectiveTimeOptions } from './effective-at';
import { type Metadata, withMetadata } from './metadata';
import {
  type Account,
  type AccountRecord,
  accountView,
  type CreditIntake,
  DEFAULT_INTAKE_SHARDS,
  notFound,
  owned,
  ownedBy,
  readEntry,
} from './model';
import type { EntryPage, LedgerPort } from './port';

export interface CreateAccountInput {
  readonly currency: string;
  readonly name?: string;
  /** How far below 0 `available` may go (docs/contract.md §17). @default 0 */
  readonly overdraftLimit?: number;
  /** How it takes credits (docs/contract.md §24). @default 'direct' */
  readonly creditIntake?: CreditIntake;
  /** Caller-chosen pairs, kept in the account's own metadata item (docs/contract.md §34). */
  readonly metadata?: Metadata;
}

/** A credit or debit of the account the path names (docs/contract.md §5). */
export type PostTransactionInput = Omit<PostingInput, 'accountId'>;

export type LedgerServiceOptions = CommandServiceOptions &
  EffectiveTimeOptions & {
    /** Intake partitions of an account that turns deferred. @default DEFAULT_INTAKE_SHARDS */
    readonly intakeShards?: number;
  };

/** Ledger rules over a storage port: no AWS here, only decisions. */
export class LedgerService extends MovingService<LedgerPort, LedgerServiceOptions> {
  private get intakeShards(): number {
    return this.options.intakeShards ?? DEFAULT_INTAKE_SHARDS;
  }

  async createAccount(
    ctx: CommandContext,
    input: CreateAccountInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const at = ctx.now.toISOString();
    const record: AccountRecord = {
      id: this.commands.newId(),
      ownerId: ctx.principal,
      currency: input.currency,
      balance: 0,
      available: 0,
      overdraftLimit: input.overdraftLimit ?? 0,
      status: 'open',
      name: input.name,
      version: 0,
      creditIntake: input.creditIntake ?? 'direct',
      ...(input.creditIntake === 'deferred' ? { intakeShards: this.intakeShards } : {}),
      createdAt: at,
      updatedAt: at,
      ...withMetadata(input.metadata),
    };
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.createAccount,
      pathParameters: {},
      rawBody,
      resource: accountView(record),
      outcome: 'created',
    });
    return this.commands.settle(claim, await this.port.createAccount(claim, record), () => {
      // A fresh random id collided with an existing account.
      return new InternalError(new Error('a new account id is already taken'));
    });
  }

  async postTransaction(
    ctx: CommandContext,
    accountId: string,
    input: PostTransactionInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.postTransaction,
      pathParameters: { accountId },
      rawBody,
    };
    return this.commands.planned(
      ctx,
      request,
      () => this.planPosting(ctx, accountId, input, rawBody),
      async ({ claim, posting }) => {
        const result = await this.movements.post(requestOnce(claim, ctx.operationIndex), posting);
        return this.commands.settle(claim, result, requestRefusal);
      },
    );
  }

  /**
   * A credit or debit made ready to write: its entry, its guard and its claim with the first
   * response rendered. The single route and a batch operation (docs/contract.md §25) share it.
   */
  planPosting(
    ctx: CommandContext,
    accountId: string,
    input: PostTransactionInput,
    rawBody: Json,
  ): { claim: IdempotencyClaim; posting: PostingWrite } {
    const actor = httpActor(ctx, input.effectiveAt, this.options.backdateLimitDays);
    const posting = newPosting({ ...input, accountId }, actor, this.commands.newId);
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.postTransaction,
      pathParameters: { accountId },
      rawBody,
      resource: posting.entry,
      outcome: 'created',
    });
    return { claim, posting };
  }

  /**
   * Closes an empty account (docs/contract.md §17): a read, then ONE transaction of the claim
   * and the status, conditioned on the account being as read. Closing a closed account answers
   * it as it is (its record alone is written); balance or available other than 0 →
   * `account_not_empty`, recorded. Nothing moves, so nothing reaches the journal.
   */
  async closeAccount(
    ctx: CommandContext,
    accountId: string,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.closeAccount,
      pathParameters: { accountId },
      rawBody,
    };
    const at = ctx.now.toISOString();
    return retryOptimistic<CommandResponse>(
      {},
      async () => {
        const account = owned(await this.port.getAccount(accountId), ctx.principal);
        if (!account)
          return this.commands.refuse(this.commands.key(ctx, request), notFound('Account'));
        const closed: AccountRecord = { ...account, status: 'closed', updatedAt: at };
        const already = account.status === 'closed';
        const claim = this.commands.claim(ctx, {
          ...request,
          resource: accountView(already ? account : closed),
          outcome: 'ok',
        });
        if (already) return this.commands.answer(claim);
        if (account.balance !== 0 || account.available !== 0) {
          return this.commands.reject(claim, new AccountNotEmptyError());
        }
        const result = await this.port.closeAccount(claim, account, at);
        // Pending credits are money on their way in (docs/contract.md §24).
        if (result.kind === 'pending_credits') {
          return this.commands.reject(claim, new AccountNotEmptyError());
        }
        if (result.kind !== 'account_moved') return this.commands.settle(claim, result, never);
        // Changed between the read and the write: decide again on the account as it is now.
        return MOVED;
      },
      () => new UnavailableError(new Error(`account ${accountId} kept changing while closing`)),
    );
  }

  /** The account and, from its own item, its metadata (docs/contract.md §34). */
  async getAccount(principal: string, accountId: string): Promise<Account> {
    const [account, metadata] = await Promise.all([
      this.ownedAccount(principal, accountId),
      this.port.getAccountMetadata(accountId),
    ]);
    return accountView({ ...account, ...withMetadata(metadata) });
  }

  async listTransactions(
    principal: string,
    accountId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<EntryPage> {
    await this.ownedAccount(principal, accountId);
    const page = await this.port.listEntries(accountId, limit, cursor);
    return { ...page, items: page.items.map((entry) => readEntry(entry)) };
  }

  async listEventSources(
    principal: string,
    accountId: string,
  ): Promise<{ items: EventSourceView[] }> {
    await this.ownedAccount(principal, accountId);
    return { items: await this.port.listEventSources(accountId) };
  }

  private async ownedAccount(principal: string, accountId: string): Promise<AccountRecord> {
    return ownedBy(await this.port.getAccount(accountId), principal, 'Account');
  }
}

const never = (): never => {
  throw new Error('a close reports no rejection besides a moved account');
};
