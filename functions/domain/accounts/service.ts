import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { postingGuard } from '../movements/legs';
import { explainPostingRejection } from '../movements/rejections';
import { AccountNotEmptyError, InternalError, UnavailableError } from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import { type EffectiveTimeOptions, resolveEffectiveAt } from './effective-at';
import { type Metadata, withMetadata } from './metadata';
import {
  type Account,
  type AccountRecord,
  accountView,
  notFound,
  owned,
  ownedBy,
  type PostingEntry,
  readEntry,
} from './model';
import type { EntryPage, EventSourceView, LedgerPort } from './port';

export interface CreateAccountInput {
  readonly currency: string;
  readonly name?: string;
  /** How far below 0 `available` may go (docs/contract.md §17). @default 0 */
  readonly overdraftLimit?: number;
}

export interface PostTransactionInput {
  readonly type: 'credit' | 'debit';
  readonly amount: number;
  readonly currency: string;
  readonly reference?: string;
  readonly paymentId?: string;
  readonly metadata?: Metadata;
  /** When it counts in the books (docs/contract.md §26). @default the commit's own time */
  readonly effectiveAt?: string;
}

export type LedgerServiceOptions = CommandServiceOptions & EffectiveTimeOptions;

/** Ledger rules over a storage port: no AWS here, only decisions. */
export class LedgerService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: LedgerPort,
    private readonly options: LedgerServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
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
      createdAt: at,
      updatedAt: at,
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
    const entry: PostingEntry = {
      id: this.commands.newId(),
      accountId,
      type: input.type,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      paymentId: input.paymentId,
      ...withMetadata(input.metadata),
      origin: 'http',
      createdAt: ctx.now.toISOString(),
      effectiveAt: resolveEffectiveAt(input.effectiveAt, ctx.now, this.options.backdateLimitDays),
    };
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.postTransaction,
      pathParameters: { accountId },
      rawBody,
      resource: entry,
      outcome: 'created',
    });
    const guard = postingGuard(entry, ctx.principal);
    const result = await this.port.postEntry(claim, entry, guard);
    return this.commands.settle(claim, result, (rejected) =>
      explainPostingRejection(rejected, guard),
    );
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
        if (result.kind !== 'account_moved') return this.commands.settle(claim, result, never);
        // Changed between the read and the write: decide again on the account as it is now.
        return MOVED;
      },
      () => new UnavailableError(new Error(`account ${accountId} kept changing while closing`)),
    );
  }

  async getAccount(principal: string, accountId: string): Promise<Account> {
    return accountView(await this.ownedAccount(principal, accountId));
  }

  async listTransactions(
    principal: string,
    accountId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<EntryPage> {
    await this.ownedAccount(principal, accountId);
    const page = await this.port.listEntries(accountId, limit, cursor);
    return { ...page, items: page.items.map(readEntry) };
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
