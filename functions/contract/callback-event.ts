import * as z from 'zod';
import { EXECUTION_STATUSES } from '../core/tasks';
import { SequenceNumber } from './ledger-event';
import { Sha256Hex, Uuid } from './schemas';

/** docs/contract.md §12, §14: `data.result` of a SUCCEEDED export callback. */
export const ExportResultSchema = z.strictObject({
  key: z.string().min(1).max(1024),
  rows: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  sha256: Sha256Hex,
});

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const NonNilUuid = Uuid.refine((v) => v !== NIL_UUID, 'must not be the nil UUID');

/** docs/contract.md §7: the CloudEvent a worker sends about one execution. */
export const CallbackEventSchema = z.looseObject({
  specversion: z.literal('1.0'),
  id: NonNilUuid,
  source: z.string().min(1).max(512),
  type: z.string().min(1).max(256),
  sequence: SequenceNumber,
  applicationid: z.string().min(1).max(64).optional(),
  executionid: NonNilUuid,
  taskid: NonNilUuid.optional(),
  time: z.iso.datetime({ offset: true }).optional(),
  data: z.strictObject({
    status: z.enum(EXECUTION_STATUSES).optional(),
    progress: z.number().int().min(0).max(100).optional(),
    /** With SUCCEEDED of an export (§12): the object the worker wrote and its measurements. */
    result: ExportResultSchema.optional(),
  }),
});

export type CallbackEvent = z.output<typeof CallbackEventSchema>;
