import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookSender } from '../domain/webhooks/delivery-port';

/** Resolves every name to the one address already checked: no second lookup to rebind. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * One POST of a webhook (docs/contract.md §32): to the checked address when given (TLS still
 * checks the URL's host name), never following a redirect (a 3xx is a failed attempt), the
 * status once the headers arrive within `timeoutMs`, the body drained and dropped.
 */
export const httpsWebhookSender: WebhookSender = (req) =>
  new Promise((resolve) => {
    const send = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (status: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(error === undefined ? { status } : { status, error });
    };
    const outgoing = send(
      req.url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
        ...(req.address ? { lookup: pinnedLookup(req.address) } : {}),
        agent: false,
      },
      (res) => {
        res.resume();
        finish(res.statusCode ?? null);
      },
    );
    const timer = setTimeout(() => {
      finish(null, `no answer within ${req.timeoutMs} ms`);
      outgoing.destroy();
    }, req.timeoutMs);
    outgoing.on('error', (error) => finish(null, error.message));
    outgoing.end(req.body);
  });
