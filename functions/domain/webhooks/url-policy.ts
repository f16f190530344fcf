import { BlockList, isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '../../contract/webhooks';
import { ValidationError } from '../shared/errors';

/**
 * Where a webhook may point (docs/contract.md §32): an `https:` URL whose host resolves only
 * to public addresses when deployed; locally `http://127.0.0.1` too, and no address check. The
 * same check runs at creation and before each delivery, which then connects to the address it
 * checked (no second lookup to rebind, no redirects).
 */
export interface UrlPolicy {
  /** `local`: loopback http allowed, addresses not checked. */
  readonly mode: 'deployed' | 'local';
  /** The host's addresses (A and AAAA); deployed only. */
  readonly resolve: (host: string) => Promise<readonly string[]>;
}

/** A URL that passed, with the address to connect to (undefined: let the socket resolve). */
export interface CheckedUrl {
  readonly url: URL;
  readonly address: string | undefined;
}

/**
 * Addresses never reachable from a deployed webhook: private, loopback, link-local, special.
 * Built on the first check, not at the init of every function that bundles this module.
 */
function blockList(): BlockList {
  const list = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: [string, number][] = [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}
let blocked: BlockList | undefined;

/** An IPv4 address carried inside an IPv6 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`). */
function embeddedV4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match?.[1]) return match[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether a deployed webhook may connect to `address` (an IP literal). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  blocked ??= blockList();
  if (family === 4) return !blocked.check(address, 'ipv4');
  const v4 = embeddedV4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !blocked.check(address, 'ipv6');
}

const refuse = (detail: string) => new ValidationError(detail, [{ path: 'url', message: detail }]);

/** The URL's syntax: scheme, no credentials, no fragment, a host; the policy's mode decides http. */
export function parseWebhookUrl(text: string, mode: UrlPolicy['mode']): URL {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) throw refuse('url is too long');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('url must be an absolute URL');
  }
  const loopbackHttp = mode === 'local' && url.protocol === 'http:' && url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw refuse(
      mode === 'local'
        ? 'url must be https: (or http://127.0.0.1 on the local stack)'
        : 'url must be https:',
    );
  }
  if (url.username || url.password) throw refuse('url must not carry credentials');
  if (url.hash) throw refuse('url must not have a fragment');
  return url;
}

/** The hostname as the resolver and isIP take it (IPv6 literals lose their brackets). */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL; deployed, resolves its host and refuses it when any address is not
 * public (`400 validation_failed` on `url`). Returns the first address to connect to.
 */
export async function checkWebhookUrl(text: string, policy: UrlPolicy): Promise<CheckedUrl> {
  const url = parseWebhookUrl(text, policy.mode);
  if (policy.mode === 'local') return { url, address: undefined };
  const host = bareHost(url);
  const addresses = isIP(host) ? [host] : await resolveOrRefuse(policy, host);
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked !== undefined || addresses[0] === undefined) {
    throw refuse('url must resolve to public addresses only (not private, loopback, link-local)');
  }
  return { url, address: addresses[0] };
}

async function resolveOrRefuse(policy: UrlPolicy, host: string): Promise<readonly string[]> {
  try {
    return await policy.resolve(host);
  } catch (error) {
    throw new ValidationError(
      'url host does not resolve',
      [{ path: 'url', message: 'host does not resolve' }],
      error,
    );
  }
}
