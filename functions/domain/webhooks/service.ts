import {
  MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL,
  WEBHOOK_SECRET_OVERLAP_SECONDS,
} from '../../contract/webhooks';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
  type KeyRequest,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { NotFoundError, UnavailableError, ValidationError } from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import { WebhookEndpointLimitReachedError } from './errors';
import {
  type EndpointChanges,
  endpointView,
  liveSecrets,
  type WebhookEndpoint,
  type WebhookEndpointView,
  type WebhookEvents,
} from './model';
import type { WebhookEndpointPort } from './port';
import { newWebhookSecret, type SecretSealer } from './secrets';
import { checkWebhookUrl, type UrlPolicy } from './url-policy';

export interface CreateEndpointInput {
  readonly url: string;
  readonly events: WebhookEvents;
  readonly accountIds?: readonly string[];
  readonly description?: string;
}

/** How endpoints' URLs are checked and their secrets sealed (deployed or local). */
export interface WebhookSecurity {
  readonly urls: UrlPolicy;
  readonly sealer: SecretSealer;
}

export interface WebhookServiceOptions extends CommandServiceOptions, WebhookSecurity {
  /** Called after an endpoint is enabled again: its accounts' deliveries resume. */
  readonly resume?: (endpoint: WebhookEndpoint) => Promise<void>;
}

/** In a stored answer, the secret is sealed behind this mark; every answer opens it. */
const SEALED_MARK = 'sealed:';

const endpointNotFound = () => new NotFoundError('Webhook endpoint not found.');

/**
 * Webhook endpoints' routes (docs/contract.md §32): create and rotate (idempotent, each
 * showing a secret once, sealed in its stored answer so a replay shows it again), list, read,
 * change and delete, the owner's only (another's is `404`).
 */
export class WebhookEndpointService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: WebhookEndpointPort,
    private readonly options: WebhookServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

  async createEndpoint(
    ctx: CommandContext,
    input: CreateEndpointInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.createWebhookEndpoint, pathParameters: {}, rawBody };
    const key = this.commands.key(ctx, request);
    const refusal = await this.refusal(ctx.principal, input);
    if (refusal) return this.reveal(await this.commands.refuse(key, refusal));
    const at = ctx.now.toISOString();
    const secret = newWebhookSecret();
    const sealed = await this.options.sealer.seal(secret);
    const endpoint: WebhookEndpoint = {
      id: this.commands.newId(),
      ownerId: ctx.principal,
      url: input.url,
      events: input.events,
      accountIds: input.accountIds ? [...new Set(input.accountIds)] : null,
      ...(input.description === undefined ? {} : { description: input.description }),
      status: 'enabled',
      secrets: [{ sealed, createdAt: at }],
      consecutiveFailures: 0,
      version: 1,
      createdAt: at,
      updatedAt: at,
    };
    const claim = this.commands.claim(ctx, {
      ...request,
      resource: { ...endpointView(endpoint), secret: `${SEALED_MARK}${sealed}` },
      outcome: 'created',
    });
    const result = await this.port.createEndpoint(claim, endpoint);
    const response = await this.commands.settle(
      claim,
      result,
      () => new WebhookEndpointLimitReachedError(MAX_WEBHOOK_ENDPOINTS_PER_PRINCIPAL),
    );
    return this.reveal(response);
  }

  /**
   * A new current secret; the one it replaces signs for 24 h more; any older one is dropped
   * (at most two live secrets).
   */
  rotateSecret(ctx: CommandContext, endpointId: string, rawBody: Json): Promise<CommandResponse> {
    const request: KeyRequest = {
      operation: OPERATION_IDS.rotateWebhookSecret,
      pathParameters: { endpointId },
      rawBody,
    };
    const at = ctx.now.toISOString();
    const expiresAt = new Date(ctx.now.getTime() + WEBHOOK_SECRET_OVERLAP_SECONDS * 1000);
    return retryOptimistic<CommandResponse>(
      {},
      async () => {
        const endpoint = await this.port.getEndpoint(ctx.principal, endpointId);
        if (!endpoint) {
          return this.reveal(
            await this.commands.refuse(this.commands.key(ctx, request), endpointNotFound()),
          );
        }
        const secret = newWebhookSecret();
        const sealed = await this.options.sealer.seal(secret);
        const current = liveSecrets(endpoint, ctx.now).find((s) => s.expiresAt === undefined);
        const next: WebhookEndpoint = {
          ...endpoint,
          secrets: [
            { sealed, createdAt: at },
            ...(current ? [{ ...current, expiresAt: expiresAt.toISOString() }] : []),
          ],
          version: endpoint.version + 1,
          updatedAt: at,
        };
        const claim = this.commands.claim(ctx, {
          ...request,
          resource: {
            ...endpointView(next),
            secret: `${SEALED_MARK}${sealed}`,
            previousSecretExpiresAt: current ? expiresAt.toISOString() : null,
          },
          outcome: 'created',
        });
        const result = await this.port.replaceEndpoint(next, endpoint.version, claim);
        if (result.kind === 'moved') return MOVED;
        return this.reveal(await this.commands.settle(claim, result, () => endpointNotFound()));
      },
      () => new UnavailableError(new Error(`webhook endpoint ${endpointId} kept changing`)),
    );
  }

  async listEndpoints(principal: string): Promise<{ items: WebhookEndpointView[] }> {
    return { items: (await this.port.listEndpoints(principal)).map(endpointView) };
  }

  async getEndpoint(principal: string, endpointId: string): Promise<WebhookEndpointView> {
    return endpointView(await this.owned(principal, endpointId));
  }

  /** PATCH: status, events, description; enabling again resets the failure count and resumes. */
  async updateEndpoint(
    principal: string,
    endpointId: string,
    changes: EndpointChanges,
    now: Date,
  ): Promise<WebhookEndpointView> {
    const { endpoint, next } = await retryOptimistic(
      {},
      async () => {
        const endpoint = await this.owned(principal, endpointId);
        const next = applyChanges(endpoint, changes, now);
        const result = await this.port.replaceEndpoint(next, endpoint.version);
        return result.kind === 'moved' ? MOVED : { endpoint, next };
      },
      () => new UnavailableError(new Error(`webhook endpoint ${endpointId} kept changing`)),
    );
    if (endpoint.status === 'disabled' && next.status === 'enabled')
      await this.options.resume?.(next);
    return endpointView(next);
  }

  async deleteEndpoint(principal: string, endpointId: string): Promise<void> {
    if (!(await this.port.deleteEndpoint(principal, endpointId))) throw endpointNotFound();
  }

  /** The owner's endpoint, or `404` (another's endpoint is not found either). */
  async owned(principal: string, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.port.getEndpoint(principal, endpointId);
    if (!endpoint) throw endpointNotFound();
    return endpoint;
  }

  /** Why a creation is refused before anything is written (`400`, never recorded). */
  private async refusal(principal: string, input: CreateEndpointInput) {
    try {
      await checkWebhookUrl(input.url, this.options.urls);
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
    if (!input.accountIds || input.accountIds.length === 0) return undefined;
    const owned = await this.port.ownedAccounts(principal, input.accountIds);
    const index = input.accountIds.findIndex((id) => !owned.has(id));
    if (index < 0) return undefined;
    const message = 'is not an account of yours';
    return new ValidationError(`accountIds[${index}] ${message}`, [
      { path: `accountIds.${index}`, message },
    ]);
  }

  /** The answer with its secret opened: a first answer and its replays show it alike. */
  private async reveal(response: CommandResponse): Promise<CommandResponse> {
    if (response.statusCode >= 300) return response;
    const body = JSON.parse(response.body) as Record<string, unknown>;
    const { secret } = body;
    if (typeof secret !== 'string' || !secret.startsWith(SEALED_MARK)) return response;
    const opened = await this.options.sealer.open(secret.slice(SEALED_MARK.length));
    return { ...response, body: JSON.stringify({ ...body, secret: opened }) };
  }
}

function applyChanges(e: WebhookEndpoint, changes: EndpointChanges, now: Date): WebhookEndpoint {
  const { description, ...rest } = e;
  const kept = changes.description === null ? rest : e;
  const enabling = e.status === 'disabled' && changes.status === 'enabled';
  return {
    ...kept,
    ...(changes.status === undefined ? {} : { status: changes.status }),
    ...(changes.events === undefined ? {} : { events: changes.events }),
    ...(typeof changes.description === 'string' ? { description: changes.description } : {}),
    ...(enabling ? { consecutiveFailures: 0 } : {}),
    version: e.version + 1,
    updatedAt: now.toISOString(),
  };
}
