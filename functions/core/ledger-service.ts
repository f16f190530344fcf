import {
  BalanceLimitExceededError,
  CurrencyMismatchError,
  InsufficientFundsError,
  InternalError,
  PaymentIdConflictError,
} from './errors';
import type { Json } from './fingerprint';
import {
  buildClaim,
  type CommandContext,
  type CommandResponse,
  firstResponse,
  recordRejection,
  replayOrReject,
} from './idempotent-command';
import { type Account, type AccountRecord, accountView, type LedgerEntry, ownedBy } from './model';
import { exceedsBalanceLimit } from './money';
import type {
  EntryGuard,
  EntryPage,
  EventSourceView,
  IdempotencyClaim,
  LedgerPort,
  WriteResult,
} from './ports';

export const OPERATIONS = {
  createAccount: 'POST /v1/accounts',
  postTransaction: 'POST /v1/accounts/{accountId}/transactions',
} as const;

export type { CommandContext, CommandResponse };

export interface CreateAccountInput {
  readonly currency: string;
  readonly name?: string;
}

export interface PostTransactionInput {
  readonly type: 'credit' | 'debit';
  readonly amount: number;
  readonly currency: string;
  readonly reference?: string;
  readonly paymentId?: string;
}

export interface LedgerServiceOptions {
  readonly idempotencyRetentionSeconds: number;
  readonly newId?: () => string;
}

/** Ledger rules over a storage port: no AWS here, only decisions. */
export class LedgerService {
  private readonly newId: () => string;

  constructor(
    private readonly port: LedgerPort,
    private readonly options: LedgerServiceOptions,
  ) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  async createAccount(
    ctx: CommandContext,
    input: CreateAccountInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const at = ctx.now.toISOString();
    const record: AccountRecord = {
      id: this.newId(),
      ownerId: ctx.principal,
      currency: input.currency,
      balance: 0,
      ...(input.name === undefined ? {} : { name: input.name }),
      createdAt: at,
      updatedAt: at,
    };
    const claim = this.claim(ctx, OPERATIONS.createAccount, {}, rawBody, 201, accountView(record));
    return this.settle(ctx, claim, await this.port.createAccount(claim, record));
  }

  async postTransaction(
    ctx: CommandContext,
    accountId: string,
    input: PostTransactionInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const entry: LedgerEntry = {
      id: this.newId(),
      accountId,
      type: input.type,
      amount: input.amount,
      currency: input.currency,
      ...(input.reference === undefined ? {} : { reference: input.reference }),
      ...(input.paymentId === undefined ? {} : { paymentId: input.paymentId }),
      origin: 'http',
      createdAt: ctx.now.toISOString(),
    };
    const claim = this.claim(ctx, OPERATIONS.postTransaction, { accountId }, rawBody, 201, entry);
    const guard: EntryGuard = {
      ownerId: ctx.principal,
      currency: input.currency,
      ...(input.type === 'debit' ? { requireBalanceAtLeast: input.amount } : {}),
    };
    const increase = input.type === 'credit' ? input.amount : 0;
    const result = await this.port.postEntry(claim, entry, guard);
    return this.settle(ctx, claim, result, guard, increase);
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
    return this.port.listEntries(accountId, limit, cursor);
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

  private claim(
    ctx: CommandContext,
    operation: string,
    pathParameters: Record<string, string>,
    rawBody: Json,
    statusCode: number,
    responseBody: unknown,
  ): IdempotencyClaim {
    return buildClaim(ctx, {
      operation,
      pathParameters,
      rawBody,
      statusCode,
      responseBody,
      retentionSeconds: this.options.idempotencyRetentionSeconds,
    });
  }

  /** Turns a write's facts into the caller's answer; rejections that reached the ledger are recorded. */
  private async settle(
    ctx: CommandContext,
    claim: IdempotencyClaim,
    result: WriteResult,
    guard?: EntryGuard,
    increase = 0,
  ): Promise<CommandResponse> {
    switch (result.kind) {
      case 'committed':
        return firstResponse(claim);
      case 'claimed':
        return replayOrReject(claim, result.record);
      case 'payment_id_taken':
        return recordRejection(this.port, claim, new PaymentIdConflictError());
      case 'account_rejected': {
        const account = ownedBy(result.account, ctx.principal, 'Account');
        if (!guard) throw new InternalError(new Error('an account write without a guard failed'));
        if (account.currency !== guard.currency) {
          return recordRejection(
            this.port,
            claim,
            new CurrencyMismatchError(account.currency, guard.currency),
          );
        }
        const required = guard.requireBalanceAtLeast;
        if (required !== undefined && account.balance < required) {
          return recordRejection(this.port, claim, new InsufficientFundsError());
        }
        if (exceedsBalanceLimit(account.balance, increase)) {
          return recordRejection(this.port, claim, new BalanceLimitExceededError());
        }
        // The guard failed on a state that satisfies it: storage and rules disagree.
        throw new InternalError(new Error('account guard failed without a failing rule'));
      }
    }
  }
}
