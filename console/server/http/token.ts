import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The console's token (docs/contract.md §29, §31 "Console"): loopback is not authentication,
 * since any local process or web page can send a request to 127.0.0.1. Each start makes a new
 * random token; the banner prints the console's URL with it in the fragment (which a browser
 * never sends, so it stays out of logs and `Referer`), the page sends it as a header, and every
 * `/console/api` request without it is `401`.
 */
export function newConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether `given` is the token, compared in constant time (over digests of equal length). */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(token), digest(given)) && given.length === token.length;
}

/** `Sec-Fetch-Site` values of the console's own pages (same-origin) or a typed URL (none). */
const OWN_SITES = new Set(['same-origin', 'none']);

/** Why a request is refused before the token is looked at (a cross-site browser request). */
export function crossSiteRefusal(secFetchSite: string | undefined): string | undefined {
  if (secFetchSite === undefined || OWN_SITES.has(secFetchSite)) return undefined;
  return `a ${secFetchSite} request is refused: only the console's own pages may call it (Sec-Fetch-Site)`;
}
