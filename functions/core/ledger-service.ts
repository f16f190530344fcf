import {
  type AppError,
  CurrencyMismatchError,
  IdempotencyKeyReusedError,
  InsufficientFundsError,
  InternalError,
  NotFoundError,
  PaymentIdConflictError,
} from './errors';
import { idempotencyScopeId, type Json, requestFingerprint } from './fingerprint';
import { type Account, type AccountRecord, accountView, type LedgerEntry } from './model';
import type {
  EntryGuard,
  EntryPage,
  EventSourceView,
  IdempotencyClaim,
  LedgerPort,
  WriteResult,
} from './ports';
import { toProblem } from './problem';

export const OPERATIONS = {
  createAccount: 'POST /v1/accounts',
  postTransaction: 'POST /v1/accounts/{accountId}/transactions',
} as const;

/** Who asks, with which key, and when: everything an idempotent command needs besides input. */
export interface CommandContext {
  readonly principal: string;
  readonly idempotencyKey: string;
  readonly now: Date;
}

/** A command's HTTP-shaped answer: the first response, or its replay. */
export interface CommandResponse {
  readonly statusCode: number;
  readonly body: string;
  readonly replayed: boolean;
}

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
    return this.settle(ctx, claim, await this.port.postEntry(claim, entry, guard), guard);
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
    const account = await this.port.getAccount(accountId);
    // Another principal's account is indistinguishable from a missing one (CONTRACT §2).
    if (!account || account.ownerId !== principal) throw new NotFoundError('Account not found.');
    return account;
  }

  private claim(
    ctx: CommandContext,
    operation: string,
    pathParameters: Record<string, string>,
    rawBody: Json,
    statusCode: number,
    responseBody: unknown,
  ): IdempotencyClaim {
    const nowSeconds = Math.floor(ctx.now.getTime() / 1000);
    return {
      scopeId: idempotencyScopeId(ctx.principal, operation, ctx.idempotencyKey),
      fingerprint: requestFingerprint(operation, pathParameters, rawBody),
      nowSeconds,
      expiresAt: nowSeconds + this.options.idempotencyRetentionSeconds,
      response: { statusCode, body: JSON.stringify(responseBody) },
    };
  }

  /** Turns a write's facts into the caller's answer; rejections that reached the ledger are recorded. */
  private async settle(
    ctx: CommandContext,
    claim: IdempotencyClaim,
    result: WriteResult,
    guard?: EntryGuard,
  ): Promise<CommandResponse> {
    switch (result.kind) {
      case 'committed':
        return { ...claim.response, replayed: false };
      case 'claimed':
        return replayOrReject(claim, result.record);
      case 'payment_id_taken':
        return this.recordRejection(claim, new PaymentIdConflictError());
      case 'account_rejected': {
        const account = result.account;
        if (!account || account.ownerId !== ctx.principal || !guard) {
          throw new NotFoundError('Account not found.');
        }
        if (account.currency !== guard.currency) {
          return this.recordRejection(
            claim,
            new CurrencyMismatchError(account.currency, guard.currency),
          );
        }
        const required = guard.requireBalanceAtLeast;
        if (required !== undefined && account.balance < required) {
          return this.recordRejection(claim, new InsufficientFundsError());
        }
        // The guard failed on a state that satisfies it: storage and rules disagree.
        throw new InternalError(new Error('account guard failed without a failing rule'));
      }
    }
  }

  private async recordRejection(
    claim: IdempotencyClaim,
    error: AppError,
  ): Promise<CommandResponse> {
    const problem = toProblem(error);
    const rejection = { ...claim, response: { statusCode: problem.status, body: problem.body } };
    const recorded = await this.port.recordResponse(rejection);
    if (recorded.kind === 'claimed') return replayOrReject(claim, recorded.record);
    return { ...rejection.response, replayed: false };
  }
}

function replayOrReject(
  claim: IdempotencyClaim,
  record: { fingerprint: string; statusCode: number; body: string },
): CommandResponse {
  if (record.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReusedError();
  return { statusCode: record.statusCode, body: record.body, replayed: true };
}
