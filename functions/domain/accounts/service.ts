import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { InternalError } from '../shared/errors';
import { type Account, type AccountRecord, accountView, ownedBy, type PostingEntry } from './model';
import type { EntryGuard, EntryPage, EventSourceView, LedgerPort } from './port';
import { explainPostingRejection } from './rejections';

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

export type LedgerServiceOptions = CommandServiceOptions;

/** Ledger rules over a storage port: no AWS here, only decisions. */
export class LedgerService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: LedgerPort,
    options: LedgerServiceOptions,
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
      origin: 'http',
      createdAt: ctx.now.toISOString(),
    };
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.postTransaction,
      pathParameters: { accountId },
      rawBody,
      resource: entry,
      outcome: 'created',
    });
    const guard: EntryGuard = {
      ownerId: ctx.principal,
      currency: input.currency,
      requireAvailableAtLeast: input.type === 'debit' ? input.amount : undefined,
      increaseBy: input.type === 'credit' ? input.amount : undefined,
    };
    const result = await this.port.postEntry(claim, entry, guard);
    return this.commands.settle(claim, result, (rejected) =>
      explainPostingRejection(rejected, guard),
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
}
