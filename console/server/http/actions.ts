import { describeError } from '../../../functions/domain/shared/log';
import {
  REDRIVE_MAX_PER_CLICK,
  type RedriveRequest,
  type RedriveResult,
  type WaiveRequest,
  type WaiveResult,
} from '../../shared/api';
import { type Gaps, WaiverRefused } from '../gaps/gaps';
import { type DeadLetters, UnknownQueueError } from '../queues/dead-letters';

/** What an action answers: a status and a JSON body. */
export interface ActionAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface ActionDeps {
  readonly deadLetters: DeadLetters;
  readonly gaps: Gaps;
  /** The OS user running the console: who every action line names. */
  readonly user: string;
  /** ONE line per action (docs/contract.md §29): action, target, OS user, outcome. */
  readonly log: (line: string) => void;
}

/** Characters of an operator's reason (the console adds who waived, within §18's 500). */
const MAX_REASON = 400;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The console's two actions. Each needs `confirm: true` in its body: without it nothing is
 * read or written, and the answer says so. Each logs one line, whatever its outcome.
 */
export function createActions(deps: ActionDeps) {
  // Whoever holds the console's token acts as the OS user who started it (§31): the line says
  // so rather than claiming to know the person.
  const actor = JSON.stringify(`console owner=${deps.user}`);
  const line = (action: string, target: string, outcome: string) =>
    deps.log(
      `action=${action} target=${JSON.stringify(target)} user=${actor} outcome=${JSON.stringify(outcome)}`,
    );

  async function run<T>(
    action: string,
    target: string,
    confirmed: boolean,
    work: () => Promise<T>,
    outcome: (result: T) => string,
  ): Promise<ActionAnswer> {
    if (!confirmed) {
      line(action, target, 'refused: not confirmed');
      return {
        status: 428,
        body: { error: `${action} needs a confirmation ("confirm": true); nothing was changed` },
      };
    }
    try {
      const result = await work();
      line(action, target, outcome(result));
      return { status: 200, body: result };
    } catch (error) {
      const status =
        error instanceof Refused
          ? error.status
          : error instanceof WaiverRefused || error instanceof UnknownQueueError
            ? 400
            : 500;
      const message = error instanceof Error ? error.message : String(error);
      line(action, target, `failed: ${status === 500 ? describeError(error) : message}`);
      return { status, body: { error: message } };
    }
  }

  return {
    redrive(body: unknown): Promise<ActionAnswer> {
      const request = body as Partial<RedriveRequest> | undefined;
      const queue = typeof request?.queue === 'string' ? request.queue : '';
      const ids = request?.messageIds;
      const target = `${queue || '(no queue)'} ${ids === undefined ? 'all' : `${ids.length} selected`}`;
      return run<RedriveResult>(
        'redrive',
        target,
        request?.confirm === true,
        async () => {
          if (!deps.deadLetters.queueNames().includes(queue)) {
            throw new Refused(400, `no dead-letter queue named "${queue}"`);
          }
          if (ids !== undefined) checkIds(ids);
          return deps.deadLetters.redrive(queue, ids);
        },
        (r) =>
          `moved ${r.moved.length} to ${r.target}${r.missing.length > 0 ? `, ${r.missing.length} not found` : ''}, ${r.remaining} left`,
      );
    },

    waive(body: unknown): Promise<ActionAnswer> {
      const request = body as Partial<WaiveRequest> | undefined;
      const numbers = Array.isArray(request?.numbers) ? request.numbers : [];
      const target = `account ${String(request?.accountId)} source ${String(request?.source)} gaps ${numbers.join(',')}`;
      return run<WaiveResult>(
        'waive',
        target,
        request?.confirm === true,
        async () => deps.gaps.waive(checkWaiver(request), deps.user),
        (r) =>
          r.outcome === 'waived'
            ? `waived ${r.waived.join(',') || 'nothing'}${r.ignored.length > 0 ? `, ignored ${r.ignored.join(',')} (not open)` : ''}`
            : r.outcome,
      );
    },
  };
}

function checkIds(ids: unknown): asserts ids is string[] {
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string')) {
    throw new Refused(400, 'messageIds must be a non-empty list of message ids');
  }
  if (ids.length > REDRIVE_MAX_PER_CLICK) {
    throw new Refused(400, `at most ${REDRIVE_MAX_PER_CLICK} messages per click`);
  }
}

function checkWaiver(request: Partial<WaiveRequest> | undefined): WaiveRequest {
  const { accountId, source, numbers, reason } = request ?? {};
  if (typeof accountId !== 'string' || typeof source !== 'string' || source === '') {
    throw new Refused(400, 'accountId and source are required');
  }
  if (
    !Array.isArray(numbers) ||
    numbers.length === 0 ||
    numbers.some((n) => !Number.isSafeInteger(n) || n < 1)
  ) {
    throw new Refused(400, 'numbers must be a non-empty list of gap numbers');
  }
  if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_REASON) {
    throw new Refused(400, `a reason of 1 to ${MAX_REASON} characters is required`);
  }
  return { accountId, source, numbers, reason };
}
