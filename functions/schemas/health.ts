import * as z from 'zod';
import { lazySchema } from './lazy';
import { Timestamp } from './shared';

/** `GET /v1/health` (docs/contract.md §5). */
export const Health = lazySchema(() =>
  z.object({
    status: z.literal('ok'),
    checks: z.object({ table: z.literal('ok') }),
    checkedAt: Timestamp,
  }),
);
