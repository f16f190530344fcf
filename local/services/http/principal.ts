import {
  LOCAL_PRINCIPAL_CHARACTERS,
  LOCAL_PRINCIPAL_HEADER,
  LOCAL_PRINCIPAL_MAX_LENGTH,
  LOCAL_PRINCIPAL_PATTERN,
} from '../../../functions/contract/local-stack';

/** What the local stack's stand-in for an authorizer made of `X-Principal-Id`. */
export type LocalPrincipal =
  | { readonly kind: 'absent' }
  | { readonly kind: 'principal'; readonly principal: string }
  /** Why the header names no principal, said so that the caller can fix it. */
  | { readonly kind: 'malformed'; readonly problem: string };

const RULE = `it must be 1-${LOCAL_PRINCIPAL_MAX_LENGTH} characters of ${LOCAL_PRINCIPAL_CHARACTERS} (local stack only).`;

/** Reads every value the request sent for the header, in arrival order. */
export function readLocalPrincipal(values: readonly string[]): LocalPrincipal {
  const [value] = values;
  if (value === undefined) return { kind: 'absent' };
  const header = LOCAL_PRINCIPAL_HEADER;
  if (values.length > 1) {
    return {
      kind: 'malformed',
      problem: `${header} was sent ${values.length} times; send it once: ${RULE}`,
    };
  }
  if (LOCAL_PRINCIPAL_PATTERN.test(value)) return { kind: 'principal', principal: value };
  if (value.length === 0) return { kind: 'malformed', problem: `${header} is empty; ${RULE}` };
  const characters = [...value];
  if (characters.length > LOCAL_PRINCIPAL_MAX_LENGTH) {
    return {
      kind: 'malformed',
      problem: `${header} is ${characters.length} characters long; at most ${LOCAL_PRINCIPAL_MAX_LENGTH}: ${RULE}`,
    };
  }
  const at = characters.findIndex((ch) => !LOCAL_PRINCIPAL_PATTERN.test(ch));
  return {
    kind: 'malformed',
    problem: `${header} contains ${JSON.stringify(characters[at])} at position ${at + 1}; ${RULE}`,
  };
}
