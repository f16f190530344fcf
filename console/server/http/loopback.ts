import { isIP } from 'node:net';

/**
 * The console is an operator tool on the operator's own machine (docs/contract.md §29): it
 * binds to loopback only and answers only requests addressed to a loopback name, so another
 * host cannot reach it and a web page cannot reach it through DNS rebinding.
 */

/** 127.0.0.0/8, ::1 and `localhost`: the only interfaces the console binds to. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  if (bare.startsWith('::ffff:')) return isLoopbackHost(bare.slice('::ffff:'.length));
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

export class NotLoopbackError extends Error {
  constructor(host: string) {
    super(
      `the console binds to loopback only (127.0.0.1, ::1 or localhost), not "${host}": it acts with the operator's credentials`,
    );
  }
}

/** Throws unless `host` is a loopback interface. */
export function assertLoopback(host: string): void {
  if (!isLoopbackHost(host)) throw new NotLoopbackError(host);
}

/** The host name of a `Host` header (`127.0.0.1:3000`, `[::1]:3000`, `localhost`). */
export function hostOfHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (header.startsWith('[')) {
    const end = header.indexOf(']');
    return end < 0 ? undefined : header.slice(0, end + 1);
  }
  return header.split(':')[0];
}

/**
 * Whether a request may be answered: from a loopback peer, addressed to a loopback name, and,
 * when the browser says where it comes from, from the console's own origin.
 */
export function requestAllowed(request: {
  readonly remoteAddress: string | undefined;
  readonly host: string | undefined;
  readonly origin: string | undefined;
}): string | undefined {
  if (!request.remoteAddress || !isLoopbackHost(request.remoteAddress)) {
    return 'the console answers loopback clients only';
  }
  const host = hostOfHeader(request.host);
  if (!host || !isLoopbackHost(host)) {
    return 'the console answers requests addressed to a loopback name only (Host header)';
  }
  if (request.origin !== undefined && request.origin !== `http://${request.host}`) {
    return `requests from ${request.origin} are refused: only the console's own pages may call it`;
  }
  return undefined;
}
