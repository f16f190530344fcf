import type { Mocked } from 'vitest';
import type {
  DeadLetter,
  DeadLetterPort,
  EventLedgerPort,
} from '../../../functions/domain/events/port';
import { fakeOf } from './fake';

/** `EventLedgerPort`: no sequence or account is stored, every write commits, unless overridden. */
export function fakeEventLedgerPort(
  overrides: Partial<EventLedgerPort> = {},
): Mocked<EventLedgerPort> {
  return fakeOf<EventLedgerPort>(
    {
      getSequence: async () => undefined,
      applyEventRun: async () => ({ kind: 'committed' }),
      getAccount: async () => undefined,
      seenInbox: async () => undefined,
      recordRefusal: async () => 'recorded',
      applyWaiver: async () => ({ kind: 'committed' }),
    },
    overrides,
  );
}

/** `DeadLetterPort` in memory: every letter sent is kept in `letters`, in order. */
export function fakeDeadLetters(
  overrides: Partial<DeadLetterPort> = {},
): Mocked<DeadLetterPort> & { readonly letters: DeadLetter[] } {
  const letters: DeadLetter[] = [];
  const port = fakeOf<DeadLetterPort>(
    { send: async (letter) => void letters.push(letter) },
    overrides,
  );
  return Object.assign(port, { letters });
}
