import { type Mocked, vi } from 'vitest';
import type { RecordResult } from '../../../functions/domain/idempotency/port';

/**
 * A port whose every method is a `vi.fn`: the test's override where it gives one, else the
 * fake's default. Assert with `port.method.mock.calls` or `expect(port.method).toHaveBeenCalled…`.
 */
export function fakeOf<T extends object>(defaults: T, overrides: Partial<T> = {}): Mocked<T> {
  const fake: Record<string, unknown> = {};
  for (const [name, behaviour] of Object.entries({ ...defaults, ...overrides })) {
    fake[name] = vi.fn(behaviour as (...args: never[]) => unknown);
  }
  return fake as Mocked<T>;
}

/** What every `ResponseRecorder` fake answers by default: the rejection was stored. */
export const RECORDED: RecordResult = { kind: 'recorded' };
