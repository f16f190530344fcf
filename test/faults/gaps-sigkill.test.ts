import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ledgerEvent } from '../../kit/ledger-events';
import { drainRequests, type TappedRequest } from '../support/gaps';
import { stackClient } from './support/stack-client';
import { stacksPerFile, until } from './support/stacks';

/**
 * docs/contract.md §18 under a SIGKILL: the stack's sweeper commits a re-fetch request while
 * the gap topic is down (so it is never published), the whole stack is killed, and two stacks
 * then sweep the same table concurrently with the topic back. Every gap number must be named by
 * exactly one request id, and that request must reach the topic.
 */

/** A sweep every half second: the wait after the restart below is counted in sweeps. */
const SWEEP_INTERVAL_MS = 500;
const stacks = stacksPerFile('gaps-sigkill', {
  GAP_REFETCH_AFTER_SECONDS: '1',
  SWEEP_INTERVAL_SECONDS: String(SWEEP_INTERVAL_MS / 1000),
});

describe('gap re-fetch across a SIGKILL and concurrent sweepers', () => {
  it('names each gap number in exactly one request id, published after the restart', async () => {
    const first = await stacks().start();
    const api = stackClient(() => first.base);
    const accountId = await api.createAccount();
    // The stack created its topics on start; from now on every publish fails.
    stacks().sns.outage('unavailable');
    const source = 'urn:faults:gaps';
    await stacks().sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: stacks().queues.ledgerEvents.url,
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
    expect(await drainRequests(stacks().sqs, stacks().topics.gaps.tap.url)).toEqual([]);

    stacks().sns.outage(undefined);
    const [a] = await Promise.all([stacks().start(), stacks().start()]);
    const seen: TappedRequest[] = [];
    await until(
      'the request on the topic',
      async () => {
        seen.push(...(await drainRequests(stacks().sqs, stacks().topics.gaps.tap.url)));
        return seen.length > 0;
      },
      30_000,
    );
    // Several more sweeps of both stacks: four each.
    await new Promise((resolve) => setTimeout(resolve, 4 * SWEEP_INTERVAL_MS));
    seen.push(...(await drainRequests(stacks().sqs, stacks().topics.gaps.tap.url)));
    const ids = new Set(seen.map((r) => r.event.id));
    expect(ids.size).toBe(1);
    for (const r of seen) {
      expect(r.event.data.missing).toEqual([2, 3, 4]);
      expect(r.sourceAttribute).toBe(source);
    }
    expect((await details(a?.base ?? '')).map((g) => g.refetchRequestedAt).length).toBe(3);
  });
});
