import { describe, expect, it } from 'vitest';
import {
  ConnectionRefusedError,
  isConnectionRefused,
  waitUntilAnswering,
} from '../../../../local/services/wait-until-answering';

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('waitUntilAnswering', () => {
  it('stops at the first refusal when asked to, naming what it waited for', async () => {
    let calls = 0;
    const probe = async () => {
      calls++;
      throw refused();
    };

    await expect(
      waitUntilAnswering('DynamoDB at x', probe, 60_000, undefined, { refusalIsFinal: true }),
    ).rejects.toThrow(ConnectionRefusedError);
    expect(calls).toBe(1);
  });

  it('keeps trying through refusals for a server that is still starting', async () => {
    let calls = 0;
    const probe = async () => {
      if (++calls < 3) throw refused();
    };

    await waitUntilAnswering('DynamoDB Local', probe, 60_000);

    expect(calls).toBe(3);
  });

  it('finds ECONNREFUSED in causes and aggregated errors (localhost tries IPv6 and IPv4)', () => {
    expect(isConnectionRefused(new Error('sdk', { cause: refused() }))).toBe(true);
    expect(isConnectionRefused(new AggregateError([new Error('x'), refused()]))).toBe(true);
    expect(isConnectionRefused(new Error('timeout'))).toBe(false);
  });
});
