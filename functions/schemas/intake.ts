import * as z from 'zod';
import { lazySchema } from './lazy';
import { Uuid } from './shared';

/** A `credit-intake` message (docs/contract.md §24): an account that has pending credits. */
export const CreditIntakeMessage = lazySchema(() => z.object({ accountId: Uuid }));
