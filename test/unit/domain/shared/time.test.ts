import { afterEach, expect, it, vi } from 'vitest';
import { epochSeconds } from '../../../../functions/domain/shared/time';

afterEach(() => vi.useRealTimers());

it('counts whole seconds since the epoch, rounding down, from a Date, milliseconds or now', () => {
  expect(epochSeconds(new Date('2026-11-29T10:00:00.999Z'))).toBe(1_795_946_400);
  expect(epochSeconds(1_795_946_400_999)).toBe(1_795_946_400);
  expect(epochSeconds(new Date(-1))).toBe(-1);
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-29T10:00:01.500Z'));
  expect(epochSeconds()).toBe(1_795_946_401);
});
