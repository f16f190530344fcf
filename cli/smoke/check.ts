import { describeError } from '../../functions/domain/shared/log';

/** One smoke check: a name and a run that returns what it saw, or throws why it failed. */
export type Check = readonly [name: string, run: () => Promise<string>];

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

export interface CheckResult {
  readonly name: string;
  readonly verdict: Verdict;
  readonly detail: string;
}

/** A failed expectation inside a check; its message becomes the FAIL detail. */
export class CheckFailed extends Error {}

/** A check that could not run because an earlier one failed or an input is missing. */
export class Skipped extends Error {}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

export function skip(reason: string): never {
  throw new Skipped(reason);
}

/** The status and the problem's code, for FAIL details. */
export function describeAnswer(response: Response, error: unknown): string {
  const code =
    error && typeof error === 'object' && 'code' in error ? ` ${String(error.code)}` : '';
  return `${response.status}${code}`;
}

/** Runs checks in order: PASS with what it saw, SKIP, or FAIL with why. */
export async function runChecks(checks: readonly Check[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [name, run] of checks) {
    try {
      results.push({ name, verdict: 'PASS', detail: await run() });
    } catch (error) {
      results.push({
        name,
        verdict: error instanceof Skipped ? 'SKIP' : 'FAIL',
        detail: detailOf(error),
      });
    }
  }
  return results;
}

function detailOf(error: unknown): string {
  return error instanceof CheckFailed || error instanceof Skipped
    ? error.message
    : describeError(error);
}
