import { resolveEffectiveAt } from '../accounts/effective-at';
import { type Metadata, withMetadata } from '../accounts/metadata';
import type { EntryOrigin, PostingEntry } from '../accounts/model';
import type { EntryGuard } from './guard';
import { postingGuard } from './legs';

/** Who a movement is for, where it came from and when: what a transport adds to the input. */
export interface Actor {
  /**
   * Who must own every account the movement touches, and owns its record: the principal over
   * HTTP, the subject account's owner for a ledger event (docs/contract.md §10, §16).
   */
  readonly ownerId: string;
  readonly origin: EntryOrigin;
  /** ISO-8601: the movement's time. */
  readonly at: string;
  /**
   * When the movement counts in the books (docs/contract.md §26): the caller's `effectiveAt`
   * resolved by `resolveEffectiveAt`, else `at`.
   */
  readonly effectiveAt: string;
}

/**
 * The actor of a movement a caller asks for over HTTP, a batch's operations included: the
 * principal, the request's time, and its `effectiveAt` resolved against the backdate limit.
 */
export function httpActor(
  ctx: { readonly principal: string; readonly now: Date },
  effectiveAt: string | undefined,
  backdateLimitDays: number,
): Actor {
  return {
    ownerId: ctx.principal,
    origin: 'http',
    at: ctx.now.toISOString(),
    effectiveAt: resolveEffectiveAt(effectiveAt, ctx.now, backdateLimitDays),
  };
}

/**
 * A credit or debit of one account (docs/contract.md §5, §6), HTTP and events alike. Over
 * HTTP the account must be the caller's; a producer is trusted by IAM, so an event names no owner.
 */
export interface PostingInput {
  readonly accountId: string;
  readonly type: 'credit' | 'debit';
  readonly amount: number;
  readonly currency: string;
  readonly reference?: string;
  readonly paymentId?: string;
  readonly metadata?: Metadata;
  /** When it counts in the books (docs/contract.md §26). @default the commit's own time */
  readonly effectiveAt?: string;
}

export interface PostingWrite {
  readonly entry: PostingEntry;
  readonly guard: EntryGuard;
}

/** The entry a posting writes and what its account must satisfy (open, currency, cover or cap). */
export function newPosting(
  input: PostingInput,
  actor: Omit<Actor, 'ownerId'> & { readonly ownerId?: string },
  newId: () => string,
): PostingWrite {
  const entry: PostingEntry = {
    id: newId(),
    accountId: input.accountId,
    type: input.type,
    amount: input.amount,
    currency: input.currency,
    reference: input.reference,
    paymentId: input.paymentId,
    ...withMetadata(input.metadata),
    origin: actor.origin,
    createdAt: actor.at,
    effectiveAt: actor.effectiveAt,
  };
  return { entry, guard: postingGuard(entry, actor.ownerId) };
}
