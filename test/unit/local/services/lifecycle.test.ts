import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../../../local/services/lifecycle';

describe('local stack lifecycle', () => {
  it('stops services newest first and aborts its signal', async () => {
    const lifecycle = new Lifecycle();
    const stopped: string[] = [];
    lifecycle.defer('dynamodb', () => {
      stopped.push('dynamodb');
    });
    lifecycle.defer('http', async () => {
      stopped.push('http');
    });

    await lifecycle.stopAll();

    expect(stopped).toEqual(['http', 'dynamodb']);
    expect(lifecycle.signal.aborted).toBe(true);
  });

  it('keeps stopping the others when one stop fails, and stops each only once', async () => {
    const logs: string[] = [];
    const lifecycle = new Lifecycle((line) => logs.push(line));
    let dynamoStops = 0;
    lifecycle.defer('dynamodb', () => {
      dynamoStops += 1;
    });
    lifecycle.defer('http', () => {
      throw new Error('boom');
    });

    await Promise.all([lifecycle.stopAll(), lifecycle.stopAll()]);

    expect(dynamoStops).toBe(1);
    expect(logs).toEqual(['could not stop http: boom', 'stopped dynamodb']);
  });

  it('gives up waiting on a stop that hangs', async () => {
    const logs: string[] = [];
    const lifecycle = new Lifecycle((line) => logs.push(line), 20);
    lifecycle.defer('stuck', () => new Promise<void>(() => {}));

    await lifecycle.stopAll();

    expect(logs).toEqual(['stuck did not stop within 20 ms']);
  });

  it('stops a resource registered after shutdown began, before stopAllAfter resolves', async () => {
    const lifecycle = new Lifecycle();
    const stopped: string[] = [];
    const startup = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lifecycle.defer('late', async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        stopped.push('late');
      });
      lifecycle.signal.throwIfAborted();
    })();

    await lifecycle.stopAllAfter(startup);

    expect(stopped).toEqual(['late']);
  });
});
