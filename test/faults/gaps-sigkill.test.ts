import { randomUUID } from 'node:crypto';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../kit/free-port';
import { ledgerEvent } from '../../kit/ledger-events';
import { localSqsClient, startSqsEmulator } from '../../local/services/sqs/fauxqs';
import { ensureQueues, type LocalQueues } from '../../local/services/sqs/queues';
import { ensureTopics, type LocalTopics, localSnsClient } from '../../local/services/sqs/topics';
import { type LocalStack, startLocalStack } from '../e2e/support/stack';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy';
import { drainRequests, type TappedRequest } from '../support/gaps';
import { stackClient } from './support/stack-client';

/**
 * docs/contract.md §18 under a SIGKILL: the stack's sweeper commits a re-fetch request while
 * the gap topic is down (so it is never published), the whole stack is killed, and two stacks
 * then sweep the same table concurrently with the topic back. Every gap number must be named by
 * exactly one request id, and that request must reach the topic.
 */
let sqsStop: () => Promise<void>;
let sqs: SQSClient;
let queues: LocalQueues;
let topics: LocalTopics;
let sns: FaultProxy;
let stackEnv: Record<string, string>;
const stacks: LocalStack[] = [];

beforeAll(async () => {
  const emulator = await startSqsEmulator(await freePort());
  sqsStop = emulator.stop;
  sqs = localSqsClient(emulator.endpoint);
  queues = await ensureQueues(sqs);
  topics = await ensureTopics(localSnsClient(emulator.endpoint), sqs);
  sns = await startFaultProxy(emulator.endpoint);
  stackEnv = {
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SQS_ENDPOINT: emulator.endpoint,
    SNS_ENDPOINT: sns.endpoint,
    TABLE_NAME: `gaps-sigkill-${randomUUID()}`,
    GAP_REFETCH_AFTER_SECONDS: '1',
    SWEEP_INTERVAL_SECONDS: '1',
  };
});

afterAll(async () => {
  for (const stack of stacks) stack.kill();
  await sns?.close();
  sqs?.destroy();
  await sqsStop?.();
});

async function start(): Promise<LocalStack> {
  const stack = await startLocalStack(stackEnv);
  stacks.push(stack);
  return stack;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('gap re-fetch across a SIGKILL and concurrent sweepers', () => {
  it('names each gap number in exactly one request id, published after the restart', async () => {
    const first = await start();
    const api = stackClient(() => first.base);
    const accountId = await api.createAccount();
    // The stack created its topics on start; from now on every publish fails.
    sns.outage('unavailable');
    const source = 'urn:faults:gaps';
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queues.ledgerEvents.url,
        Entries: [1, 5].map((sequence) => ({
          Id: String(sequence),
          MessageBody: JSON.stringify(ledgerEvent({ source, subject: accountId, sequence })),
        })),
      }),
    );
    const details = async (base: string) => {
      const res = await fetch(`${base}/v1/accounts/${accountId}/event-sources`, {
        headers: { 'x-principal-id': 'fault-tester' },
      });
      const body = (await res.json()) as {
        items?: { source: string; gapDetails: { refetchRequestedAt?: string }[] }[];
      };
      return body.items?.find((item) => item.source === source)?.gapDetails ?? [];
    };
    await until(
      'the request committed while the topic is down',
      async () => {
        const d = await details(first.base);
        return d.length === 3 && d.every((g) => g.refetchRequestedAt !== undefined);
      },
      30_000,
    );
    first.kill();
    expect(await drainRequests(sqs, topics.gaps.tap.url)).toEqual([]);

    sns.outage(undefined);
    const [a] = await Promise.all([start(), start()]);
    const seen: TappedRequest[] = [];
    await until(
      'the request on the topic',
      async () => {
        seen.push(...(await drainRequests(sqs, topics.gaps.tap.url)));
        return seen.length > 0;
      },
      30_000,
    );
    // Several more sweeps of both stacks.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    seen.push(...(await drainRequests(sqs, topics.gaps.tap.url)));
    const ids = new Set(seen.map((r) => r.event.id));
    expect(ids.size).toBe(1);
    for (const r of seen) {
      expect(r.event.data.missing).toEqual([2, 3, 4]);
      expect(r.sourceAttribute).toBe(source);
    }
    expect((await details(a?.base ?? '')).map((g) => g.refetchRequestedAt).length).toBe(3);
  });
});
