import { UnavailableError } from '../shared/errors';
import type { HealthPort } from './port';

/** What `GET /v1/health` answers while the service can serve requests. */
export interface HealthReport {
  readonly status: 'ok';
  readonly checks: { readonly table: 'ok' };
  readonly checkedAt: string;
}

/**
 * The health check of load balancers and the smoke test: healthy when the table answers a read.
 * Any failure, a missing table included, is `unavailable` (the caller takes the instance out and
 * retries), and never names the table or the storage error.
 */
export class HealthService {
  constructor(
    private readonly port: HealthPort,
    private readonly clock: () => Date,
  ) {}

  async check(): Promise<HealthReport> {
    try {
      await this.port.readTable();
    } catch (error) {
      throw new UnavailableError(error, 'The ledger table did not answer.');
    }
    return { status: 'ok', checks: { table: 'ok' }, checkedAt: this.clock().toISOString() };
  }
}
