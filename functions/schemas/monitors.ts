import * as z from 'zod';
import { MAX_MONITOR_DESCRIPTION, MAX_MONITORS_PER_ACCOUNT } from '../contract/monitors';
import { MONITOR_FIELDS, MONITOR_OPERATORS } from '../domain/monitors/model';
import { lazySchema, once } from './lazy';
import { Timestamp, Uuid } from './shared';

/** Wire shapes of balance monitors (docs/contract.md §28). */

const condition = once(() => ({
  field: z.enum(MONITOR_FIELDS).meta({ description: 'which value of the account is watched' }),
  operator: z
    .enum(MONITOR_OPERATORS)
    .meta({ description: 'field <operator> value: lt, lte, gt, gte' }),
  value: z
    .number()
    .int()
    .min(-Number.MAX_SAFE_INTEGER)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: 'minor units; may be negative (overdraft)' }),
}));

export const CreateMonitorBody = lazySchema(() =>
  z.strictObject({
    ...condition(),
    description: z.string().min(1).max(MAX_MONITOR_DESCRIPTION).optional(),
  }),
);

export const MonitorPath = lazySchema(() => z.strictObject({ accountId: Uuid, monitorId: Uuid }));

export const Monitor = lazySchema(() =>
  z.object({
    id: Uuid,
    accountId: Uuid,
    ...condition(),
    description: z.string().optional(),
    state: z.enum(['true', 'false']).meta({
      description: "whether the condition holds after the account's last journaled change",
    }),
    stateSince: Timestamp.meta({
      description: 'committedAt of the record that last flipped the state, or the creation',
    }),
    createdAt: Timestamp,
  }),
);

export const MonitorList = lazySchema(() =>
  z.object({
    items: z.array(Monitor).max(MAX_MONITORS_PER_ACCOUNT).meta({ description: 'oldest first' }),
  }),
);

/** `data` of a `ledger.balance_monitor.v1` CloudEvent. */
export const MonitorEventData = lazySchema(() =>
  z.object({
    monitorId: Uuid,
    ...condition(),
    state: z.enum(['true', 'false']),
    sequence: z.number().int().min(1),
    balanceAfter: z.number().int(),
    availableAfter: z.number().int(),
  }),
);
