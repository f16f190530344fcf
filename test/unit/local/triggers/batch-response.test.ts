import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BatchOrder,
  invokeBatch,
  judgeBatchResponse,
} from '../../../../local/triggers/batch-response';

/** Three records, identified as the SQS poller (message ids) and the stream poller (sequence numbers) do. */
const SQS_IDS = ['id-1', 'id-2', 'id-3'];
const STREAM_IDS = ['000000000000000000001', '000000000000000000002', '000000000000000000003'];
const failures = (...ids: unknown[]) => ({
  batchItemFailures: ids.map((itemIdentifier) => ({ itemIdentifier })),
});

const successes: [string, unknown][] = [
  ['no answer', undefined],
  ['null', null],
  ['an empty object', {}],
  ['batchItemFailures: null', { batchItemFailures: null }],
  ['an empty batchItemFailures', { batchItemFailures: [] }],
];

const malformed: [string, unknown, string][] = [
  ['a string instead of an object', 'ok', 'malformed response: "ok"'],
  ['a list instead of an object', [], 'malformed response: []'],
  ['a number', 42, 'malformed response: 42'],
  [
    'batchItemFailures that is not a list',
    { batchItemFailures: 'id-1' },
    'malformed response: batchItemFailures is not a list',
  ],
  [
    'an itemIdentifier of another batch',
    failures('x'),
    'malformed response: itemIdentifier "x" is not in the batch',
  ],
  [
    'an empty itemIdentifier',
    failures(''),
    'malformed response: itemIdentifier "" is not in the batch',
  ],
  [
    'a numeric itemIdentifier',
    failures(1),
    'malformed response: itemIdentifier 1 is not in the batch',
  ],
  [
    'an entry without itemIdentifier',
    { batchItemFailures: [{}] },
    'malformed response: itemIdentifier undefined is not in the batch',
  ],
  [
    'a null entry',
    { batchItemFailures: [null] },
    'malformed response: itemIdentifier undefined is not in the batch',
  ],
];

describe.each([
  ['SQS poller', 'per-record', SQS_IDS],
  ['stream poller', 'in-order', STREAM_IDS],
] as const)('judgeBatchResponse for the %s (%s)', (_poller, order, ids) => {
  it.each(successes)('reads %s as every record succeeded', (_name, answer) => {
    expect(judgeBatchResponse(answer, ids, order)).toEqual({ done: [0, 1, 2], retried: [] });
  });

  it.each(malformed)('fails the whole batch on %s', (_name, answer, reason) => {
    expect(judgeBatchResponse(answer, ids, order)).toEqual({
      done: [],
      retried: [0, 1, 2],
      batchFailure: reason,
    });
  });

  it('fails the whole batch when one of several identifiers is unknown', () => {
    expect(judgeBatchResponse(failures(ids[1], 'x'), ids, order)).toMatchObject({
      done: [],
      retried: [0, 1, 2],
      batchFailure: expect.stringMatching(/^malformed response: itemIdentifier "x"/),
    });
  });

  it('retries every record when every record is listed, without failing the batch', () => {
    expect(judgeBatchResponse(failures(...ids), ids, order)).toEqual({
      done: [],
      retried: [0, 1, 2],
    });
  });

  it('never lets a record without an identifier be named (it fails with its batch)', () => {
    const withGap = [ids[0], undefined, ids[2]];
    expect(judgeBatchResponse(failures(''), withGap, order)).toMatchObject({
      done: [],
      batchFailure: expect.any(String),
    });
    // An empty identifier names nothing, even beside a record whose identifier is empty.
    expect(judgeBatchResponse(failures(''), ['', ids[1]], order)).toMatchObject({
      batchFailure: 'malformed response: itemIdentifier "" is not in the batch',
    });
    expect(judgeBatchResponse(undefined, withGap, order)).toEqual({
      done: [0, 1, 2],
      retried: [],
    });
  });
});

describe('judgeBatchResponse: where the two orders differ', () => {
  it('SQS retries each listed record on its own and deletes every other one', () => {
    expect(judgeBatchResponse(failures('id-2'), SQS_IDS, 'per-record')).toEqual({
      done: [0, 2],
      retried: [1],
    });
    expect(judgeBatchResponse(failures('id-3', 'id-1', 'id-3'), SQS_IDS, 'per-record')).toEqual({
      done: [1],
      retried: [0, 2],
    });
  });

  it('a stream checkpoints before the lowest listed record and retries from it, in order', () => {
    const [, second, third] = STREAM_IDS;
    expect(judgeBatchResponse(failures(second), STREAM_IDS, 'in-order')).toEqual({
      done: [0],
      retried: [1, 2],
    });
    expect(judgeBatchResponse(failures(third, second), STREAM_IDS, 'in-order')).toEqual({
      done: [0],
      retried: [1, 2],
    });
    expect(judgeBatchResponse(failures(third), STREAM_IDS, 'in-order')).toEqual({
      done: [0, 1],
      retried: [2],
    });
    expect(judgeBatchResponse(failures(STREAM_IDS[0]), STREAM_IDS, 'in-order')).toEqual({
      done: [],
      retried: [0, 1, 2],
    });
  });

  it('splits every batch into done and retried: listed records retried, and a stream keeps order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat()),
        fc.constantFrom<BatchOrder>('per-record', 'in-order'),
        (ids, picks, order) => {
          const listed = new Set(picks.map((p) => p % ids.length));
          const answer = failures(...[...listed].map((i) => ids[i]));
          const { done, retried, batchFailure } = judgeBatchResponse(answer, ids, order);

          expect(batchFailure).toBeUndefined();
          expect([...done, ...retried].sort((a, b) => a - b)).toEqual(ids.map((_, i) => i));
          for (const i of listed) expect(retried).toContain(i);
          if (order === 'per-record') expect(retried).toEqual([...listed].sort((a, b) => a - b));
          else expect(done).toEqual(ids.map((_, i) => i).slice(0, Math.min(ids.length, ...listed)));
        },
      ),
    );
  });
});

describe('invokeBatch', () => {
  it('hands the event to the function and settles its answer', async () => {
    const seen: unknown[] = [];
    const settlement = await invokeBatch(
      async (event: { n: number }) => {
        seen.push(event);
        return failures('id-3');
      },
      { n: 1 },
      SQS_IDS,
      'per-record',
    );

    expect(seen).toEqual([{ n: 1 }]);
    expect(settlement).toEqual({ done: [0, 1], retried: [2] });
  });

  it.each(['per-record', 'in-order'] as const)(
    'fails the whole batch (%s) when the function throws or rejects',
    async (order) => {
      const thrown = await invokeBatch(
        async () => {
          throw new Error('DynamoDB is down');
        },
        {},
        SQS_IDS,
        order,
      );
      const rejected = await invokeBatch(() => Promise.reject('nope'), {}, SQS_IDS, order);

      expect(thrown).toEqual({
        done: [],
        retried: [0, 1, 2],
        batchFailure: 'handler threw: Error: DynamoDB is down',
      });
      expect(rejected.batchFailure).toBe('handler threw: nope');
    },
  );
});
