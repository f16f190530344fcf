import { MAX_MONITORS_PER_ACCOUNT } from '../../contract/monitors';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { NotFoundError, UnavailableError } from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import { MonitorLimitReachedError } from './errors';
import { holds, type Monitor, type MonitorCondition, type MonitorView, monitorView } from './model';
import type { MonitoredAccount, MonitorPort } from './port';

export interface CreateMonitorInput extends MonitorCondition {
  readonly description?: string;
}

const accountNotFound = () => new NotFoundError('Account not found.');

/**
 * Balance monitors' routes (docs/contract.md §28): create (idempotent, like every POST), list,
 * read and delete, the owner's only. A new monitor's state comes from the account's current
 * values, at its current version: the projector evaluates the records after that one.
 */
export class MonitorService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: MonitorPort,
    options: CommandServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

  createMonitor(
    ctx: CommandContext,
    accountId: string,
    input: CreateMonitorInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.createMonitor,
      pathParameters: { accountId },
      rawBody,
    };
    const at = ctx.now.toISOString();
    return retryOptimistic<CommandResponse>(
      {},
      async () => {
        const account = await this.port.getAccount(accountId);
        if (!account || account.ownerId !== ctx.principal) {
          return this.commands.refuse(this.commands.key(ctx, request), accountNotFound());
        }
        const monitor: Monitor = {
          id: this.commands.newId(),
          accountId,
          field: input.field,
          operator: input.operator,
          value: input.value,
          ...(input.description === undefined ? {} : { description: input.description }),
          state: holds(input, account),
          stateSince: at,
          sequence: account.version,
          createdAt: at,
        };
        const claim = this.commands.claim(ctx, {
          ...request,
          resource: monitorView(monitor),
          outcome: 'created',
        });
        const result = await this.port.createMonitor(claim, monitor, account);
        // The account changed between the read and the write: its state is read again.
        if (result.kind === 'account_moved') return MOVED;
        return this.commands.settle(
          claim,
          result,
          () => new MonitorLimitReachedError(MAX_MONITORS_PER_ACCOUNT),
        );
      },
      () => new UnavailableError(new Error(`account ${accountId} kept changing`)),
    );
  }

  async listMonitors(principal: string, accountId: string): Promise<{ items: MonitorView[] }> {
    await this.owned(principal, accountId);
    return { items: (await this.port.listMonitors(accountId)).map(monitorView) };
  }

  async getMonitor(principal: string, accountId: string, monitorId: string): Promise<MonitorView> {
    await this.owned(principal, accountId);
    const monitor = await this.port.getMonitor(accountId, monitorId);
    if (!monitor) throw new NotFoundError('Monitor not found.');
    return monitorView(monitor);
  }

  /** Idempotent: a monitor already gone is deleted. */
  async deleteMonitor(principal: string, accountId: string, monitorId: string): Promise<void> {
    await this.owned(principal, accountId);
    await this.port.deleteMonitor(accountId, monitorId);
  }

  private async owned(principal: string, accountId: string): Promise<MonitoredAccount> {
    const account = await this.port.getAccount(accountId);
    if (!account || account.ownerId !== principal) throw accountNotFound();
    return account;
  }
}
