import * as z from 'zod';
import { Uuid } from './shared';

/** A `credit-intake` message (docs/contract.md §24): an account that has pending credits. */
export const CreditIntakeMessage = z.object({ accountId: Uuid });
