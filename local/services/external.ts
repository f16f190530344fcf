import { describeError } from '../../functions/domain/shared/log';
import { isConnectionRefused, type WaitOptions } from './wait-until-answering';

/** How long `npm start` waits for a DYNAMODB_ENDPOINT or SQS_ENDPOINT that accepts connections. */
export const EXTERNAL_ENDPOINT_WAIT_MS = 15_000;

/**
 * Waits for an endpoint named by `variable` that should already run: a refused connection stops
 * at once, one that accepts but never answers after EXTERNAL_ENDPOINT_WAIT_MS. Either error
 * names the variable and the endpoint and says what to do.
 */
export async function reachExternal(
  variable: string,
  endpoint: string,
  wait: (timeoutMs: number, options: WaitOptions) => Promise<void>,
): Promise<void> {
  try {
    await wait(EXTERNAL_ENDPOINT_WAIT_MS, { refusalIsFinal: true });
  } catch (error) {
    const fix = `start it, or unset ${variable} so that npm start runs its own`;
    if (isConnectionRefused(error)) {
      throw new Error(
        `${variable} ${endpoint} refused the connection (nothing listens there): ${fix}`,
        {
          cause: error,
        },
      );
    }
    const why = describeError(error);
    throw new Error(`${variable} ${endpoint} does not answer (${why}): ${fix}`, { cause: error });
  }
}
