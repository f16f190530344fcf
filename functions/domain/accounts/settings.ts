import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { DEFAULT_INTAKE_SHARDS } from '../intake/model';
import {
  AccountClosedError,
  type DomainError,
  LedgerRejection,
  UnavailableError,
} from '../shared/errors';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from '../shared/retry';
import { type Metadata, sameMetadata, withMetadata } from './metadata';
import { type AccountRecord, accountView, type CreditIntake, notFound, owned } from './model';
import type { SettingsPort } from './port';

/** `POST /v1/accounts/{accountId}/settings` (docs/contract.md §24): at least one of them. */
export interface SettingsInput {
  readonly creditIntake?: CreditIntake;
  readonly overdraftLimit?: number;
  /** New pairs for the account's metadata item; `null` clears it (docs/contract.md §34). */
  readonly metadata?: Metadata | null;
}

/**
 * An overdraftLimit lowered below what the account already draws on its overdraft
 * (available < −overdraftLimit): `409 insufficient_funds`, recorded (docs/contract.md §24).
 */
export class OverdraftInUseError extends LedgerRejection {
  constructor(available: number, limit: number) {
    super(
      'insufficient_funds',
      `The account's available is ${available}: an overdraftLimit of ${limit} would not cover ` +
        'what it already draws; credit it first or choose a higher limit.',
    );
  }
}

/** What a settings request does to an account as read. */
export type SettingsPlan =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'rejected'; readonly error: DomainError }
  | { readonly kind: 'change'; readonly next: AccountRecord; readonly gates: boolean };

/**
 * The rules (docs/contract.md §24, §36): a closed account changes no more (`account_closed`); a lower
 * overdraftLimit must still cover what is drawn; the same values again change nothing. Turning
 * deferred the first time fixes `intakeShards`; later changes keep them, and a change of the
 * intake mode syncs every gate. `spendable` follows overdraftLimit in the store.
 */
export function planSettings(
  account: AccountRecord,
  input: SettingsInput,
  shards: number,
  at: string,
): SettingsPlan {
  if (account.status === 'closed') {
    return { kind: 'rejected', error: new AccountClosedError(account.id) };
  }
  const overdraftLimit = input.overdraftLimit ?? account.overdraftLimit;
  const creditIntake = input.creditIntake ?? account.creditIntake;
  if (account.available < -overdraftLimit) {
    return { kind: 'rejected', error: new OverdraftInUseError(account.available, overdraftLimit) };
  }
  const metadata = input.metadata === undefined ? account.metadata : (input.metadata ?? undefined);
  if (
    overdraftLimit === account.overdraftLimit &&
    creditIntake === account.creditIntake &&
    sameMetadata(metadata, account.metadata)
  ) {
    return { kind: 'unchanged' };
  }
  const intakeShards = account.intakeShards ?? (creditIntake === 'deferred' ? shards : undefined);
  const { metadata: _old, ...rest } = account;
  const next: AccountRecord = {
    ...rest,
    overdraftLimit,
    creditIntake,
    ...(intakeShards === undefined ? {} : { intakeShards }),
    updatedAt: at,
    ...withMetadata(metadata),
  };
  return { kind: 'change', next, gates: creditIntake !== account.creditIntake };
}

export interface SettingsServiceOptions extends CommandServiceOptions {
  /** Intake partitions of an account that turns deferred. @default DEFAULT_INTAKE_SHARDS */
  readonly intakeShards?: number;
  /** Tuning of the read → write loop (tests). */
  readonly optimistic?: OptimisticRetryOptions;
}

/** Account settings over their port: no AWS here, only decisions. */
export class SettingsService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: SettingsPort,
    private readonly options: SettingsServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

  /**
   * Changes an account's settings: one read, then ONE transaction of the claim, the account
   * (conditioned on it being as read) and, when the intake mode changes, its gates; again on an
   * account that moved meanwhile. No money moves, so no `version` and no journal record.
   */
  async changeSettings(
    ctx: CommandContext,
    accountId: string,
    input: SettingsInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.changeSettings,
      pathParameters: { accountId },
      rawBody,
    };
    const at = ctx.now.toISOString();
    const shards = this.options.intakeShards ?? DEFAULT_INTAKE_SHARDS;
    return retryOptimistic<CommandResponse>(
      this.options.optimistic ?? {},
      async () => {
        const account = owned(await this.port.getAccount(accountId), ctx.principal);
        if (!account) {
          return this.commands.refuse(this.commands.key(ctx, request), notFound('Account'));
        }
        const plan = planSettings(account, input, shards, at);
        const resource = accountView(plan.kind === 'change' ? plan.next : account);
        const claim = this.commands.claim(ctx, { ...request, resource, outcome: 'ok' });
        if (plan.kind === 'rejected') return this.commands.reject(claim, plan.error);
        if (plan.kind === 'unchanged') return this.commands.answer(claim);
        const result = await this.port.updateSettings(claim, account, plan.next, plan.gates);
        if (result.kind === 'account_moved') return MOVED;
        return this.commands.settle(claim, result, never);
      },
      () => new UnavailableError(new Error(`account ${accountId} kept changing`)),
    );
  }
}

const never = (): never => {
  throw new Error('a settings change reports no rejection besides a moved account');
};
