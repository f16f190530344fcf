import type { HoldChanged, HoldSettlement } from '../accounts/hold-record';
import type { LedgerEntry } from '../accounts/model';
import {
  type IntakeDirectory,
  type IntakeRoutes,
  intakeDirectoryOf,
  MAX_ROUTE_ATTEMPTS,
} from './intake';
import type { LedgerTransactionWrite } from './ledger-transaction';
import { explainLegsRejection, type LegsRejection, type RejectedLeg } from './legs';
import {
  foreignOwnerOf,
  isOnceAnswer,
  type MovementResult,
  type MovementWrite,
  type Once,
  type OnceAnswer,
} from './once';
import type { MovementPort } from './port';
import type { PostingWrite } from './posting';
import { explainPostingRejection, type PostingRejection } from './rejections';
import { explainReversalRejection, type ReversalRejection, type ReversalWrite } from './reversal';
import { explainTransferRejection, type TransferWrite } from './transfer';

/**
 * One command per movement (docs/contract.md §23), whatever carries it: the transport builds
 * the movement from its input (`newPosting`, `newTransfer`, …) and the `Once` that claims it;
 * the command writes both in ONE transaction and explains a refusal as a DomainError. What the
 * answer means to the caller (a response, a dead letter) stays with the transport.
 *
 * Credits into a deferred account (docs/contract.md §24) are routed here, once for every
 * transport: a write refused because its account takes credits through intake (or because a
 * gate says it no longer does) is written again the other way, in a transaction of its own.
 */
export class MovementCommands {
  constructor(
    private readonly port: MovementPort,
    private readonly intake: IntakeDirectory = intakeDirectoryOf(port),
  ) {}

  async post(once: Once, posting: PostingWrite): Promise<MovementResult> {
    const result = await this.routed(
      [posting.entry],
      (intake) => this.port.post(once, posting, intake),
      postingLegs,
    );
    if (isOnceAnswer(result)) return result;
    return { kind: 'rejected', error: explainPostingRejection(result, posting.guard) };
  }

  async transfer(once: Once, write: TransferWrite): Promise<MovementResult> {
    const result = await this.routed(
      write.legs,
      (intake) => this.port.transfer(once, write, intake),
      rejectedLegsOf,
    );
    if (isOnceAnswer(result)) return result;
    return {
      kind: 'rejected',
      error: explainTransferRejection(result, write, foreignOwnerOf(once)),
    };
  }

  async ledgerTransaction(once: Once, write: LedgerTransactionWrite): Promise<MovementResult> {
    const result = await this.routed(
      write.legs.map((leg) => leg.entry),
      (intake) => this.port.ledgerTransaction(once, write, intake),
      rejectedLegsOf,
    );
    if (isOnceAnswer(result)) return result;
    return {
      kind: 'rejected',
      error: explainLegsRejection(result, write.legs, foreignOwnerOf(once)),
    };
  }

  /**
   * `defaulted`: the caller left the amount to default to what is left; when another reversal
   * took part of it meanwhile, the answer is `original_moved` and the caller decides again.
   */
  async reverse(
    once: Once,
    write: ReversalWrite,
    defaulted: boolean,
  ): Promise<MovementResult | { readonly kind: 'original_moved' }> {
    const result = await this.routed(
      write.legs.map((leg) => leg.entry),
      (intake) => this.port.reverse(once, write, intake),
      rejectedLegsOf,
    );
    if (isOnceAnswer(result)) return result;
    const error = explainReversalRejection(result, write, defaulted);
    return error === 'moved' ? { kind: 'original_moved' } : { kind: 'rejected', error };
  }

  /**
   * A hold's capture (docs/contract.md §11): the hold as it stood when its guard failed is the
   * refusal; what that means (not found, not active, expired) is the holds' rule to judge.
   */
  async capture(
    once: Once,
    settlement: HoldSettlement,
    entry: LedgerEntry,
  ): Promise<OnceAnswer | HoldChanged> {
    return this.port.capture(once, settlement, entry);
  }

  /**
   * Whether any of these entries goes through intake as far as this process knows: a transport
   * that would write them together on the account item (an event run) applies them one by one.
   */
  defers(entries: readonly LedgerEntry[]): boolean {
    return this.intake.routesFor(entries).size > 0;
  }

  /**
   * One write with the routes known so far; again with what its refusal taught, while it
   * taught anything (at most MAX_ROUTE_ATTEMPTS writes). A refusal that teaches nothing is the
   * movement's own.
   */
  private async routed<R extends { readonly kind: string }>(
    entries: readonly LedgerEntry[],
    attempt: (intake: IntakeRoutes) => Promise<MovementWrite<R>>,
    refusedLegs: (refusal: R) => readonly RejectedLeg[],
  ): Promise<MovementWrite<R>> {
    for (let attempts = 1; ; attempts += 1) {
      const result = await attempt(this.intake.routesFor(entries));
      if (isOnceAnswer(result) || attempts >= MAX_ROUTE_ATTEMPTS) return result;
      if (!this.intake.learn(entries, refusedLegs(result))) return result;
    }
  }
}

/** A refused posting as the one leg it has. */
const postingLegs = (refusal: PostingRejection): readonly RejectedLeg[] =>
  refusal.kind === 'account_rejected'
    ? [{ index: 0, account: refusal.account, viaGate: refusal.viaGate }]
    : [];

const rejectedLegsOf = (refusal: LegsRejection | ReversalRejection): readonly RejectedLeg[] =>
  refusal.kind === 'payment_id_taken' ? [] : refusal.legs;
