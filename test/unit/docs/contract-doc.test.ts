import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractWithRouteErrors } from '../../../client/generate';
import { PROBLEM_DESCRIPTIONS } from '../../../functions/api/document/problem-descriptions';
import { buildOpenApiDocument } from '../../../functions/api/openapi';
import { PROBLEMS } from '../../../functions/api/problems';
import { ROUTE_LIST } from '../../../functions/api/routes';
import { type ListedRoute, problemsOf, type RouteTag, routeKey } from '../../../functions/api/spec';
import {
  DEFAULT_GAP_REFETCH_AFTER_SECONDS,
  GAP_OVERDUE_FACTOR,
  GAP_REFETCH_EVENT_TYPE,
  GAP_TAP_QUEUE_NAME,
  GAP_TOPIC_NAME,
  GAP_WAIVED_EVENT_TYPE,
  LOCAL_GAP_REFETCH_AFTER_SECONDS,
  MAX_REFETCH_NUMBERS,
  MAX_WAIVER_REASON,
} from '../../../functions/contract/gaps';
import { POISON_CODES } from '../../../functions/handlers/events/poison';

/** docs/contract.md is what code and tests cite; these checks keep it from drifting. */
const root = join(import.meta.dirname, '..', '..', '..');
const contract = readFileSync(join(root, 'docs', 'contract.md'), 'utf8');
const sections = new Set([...contract.matchAll(/^## (§\d+) /gm)].map((m) => m[1] ?? ''));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/contract.md', () => {
  it('has §1–§9, then any later sections in ascending order', () => {
    const numbers = [...sections].map((s) => Number(s.slice(1)));
    expect(numbers.slice(0, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The v2 sections (§10–§13) arrive with their features, not necessarily in number order.
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('names, for every §13 hardening rule, test files that exist', () => {
    const hardening = contract.slice(contract.indexOf('## §13 '));
    const cited = [...hardening.matchAll(/test\/[\w/.-]+\.test\.ts/g)].map((m) => m[0]);
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });

  it('has every section the code and tests cite', () => {
    const cited = ['functions', 'lib', 'local', 'cli', 'console', 'test'].flatMap((dir) =>
      sourceFiles(join(root, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(?:CONTRACT|contract(?:\.md)?) (§\d+)/g)].map(
          (m) => ({ file: file.slice(root.length + 1), section: m[1] as string }),
        ),
      ),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((c) => !sections.has(c.section))).toEqual([]);
  });

  it('names every route of the OpenAPI document', () => {
    const doc = buildOpenApiDocument({ idempotencyRetentionSeconds: 1, inboxRetentionSeconds: 1 });
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`)
        .filter((route) => !contract.includes(route)),
    );
    expect(missing).toEqual([]);
  });

  it('lists every HTTP error code with its status in §3', () => {
    const errors = sectionText('§3');
    const missing = Object.entries(PROBLEMS)
      .map(([code, { status }]) => `| ${status} | \`${code}\` |`)
      .filter((row) => !errors.includes(row));
    expect(missing).toEqual([]);
  });

  it('words each code of §3 as the problem table does (what its problem type page shows)', () => {
    const rows = [...sectionText('§3').matchAll(/^\| (\d{3}) \| `([a-z_]+)` \| (.*) \|$/gm)];
    const described = Object.fromEntries(rows.map(([, , code, when]) => [code, when]));
    const expected = Object.fromEntries(Object.entries(PROBLEM_DESCRIPTIONS));
    expect(described).toEqual(expected);
  });

  it('renders its per-route error table from the route specs (npm run generate:client)', () => {
    expect(contractWithRouteErrors(contract) === contract, 'run `npm run generate:client`').toBe(
      true,
    );
  });

  it('names in each §5 row only codes that route answers, with their §3 status', () => {
    const prose = sectionText('§5').replace(
      /<!-- route-errors:begin[\s\S]*route-errors:end -->/,
      '',
    );
    const rows = prose.split('\n').filter((line) => /^\| `(GET|POST) \/v1/.test(line));
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.flatMap(mentionsIn).length).toBeGreaterThan(3);
    const wrong = rows.flatMap((row) => {
      const key = /^\| `((?:GET|POST) [^`?]+)/.exec(row)?.[1] ?? '';
      const spec = ROUTE_LIST.find((s) => routeKey(s) === key);
      if (!spec) return [`no route ${key}`];
      return unanswered(row, [spec]).map((mention) => `${key}: ${mention}`);
    });
    expect(wrong).toEqual([]);
  });

  it.each([
    ['§7', 'callbacks'],
    ['§10', 'transfers'],
    ['§11', 'holds'],
    ['§12', 'exports'],
    ['§15', 'journal'],
  ] as const)(
    'names in %s only codes the %s routes answer, with their §3 status',
    (section, tag: RouteTag) => {
      const routes = ROUTE_LIST.filter((spec) => spec.tag === tag);
      expect(unanswered(sectionText(section), routes)).toEqual([]);
    },
  );

  it('lists every dead-letter error_code in §6', () => {
    const events = sectionText('§6');
    expect(POISON_CODES.filter((code) => !events.includes(`\`${code}\``))).toEqual([]);
  });
});

/** Mentions of an answer, such as `409 insufficient_funds`. */
describe('docs/contract.md §18 (gaps)', () => {
  it('states the event types, topic, tap, defaults and limits the code uses', () => {
    const text = sectionText('§18');
    for (const fact of [
      GAP_REFETCH_EVENT_TYPE,
      GAP_WAIVED_EVENT_TYPE,
      GAP_TOPIC_NAME,
      GAP_TAP_QUEUE_NAME,
      'GapTopicArn',
      'OverdueGaps',
      'event-gaps-overdue',
      `default ${DEFAULT_GAP_REFETCH_AFTER_SECONDS}`,
      `\`npm start\`: ${LOCAL_GAP_REFETCH_AFTER_SECONDS}`,
      `${GAP_OVERDUE_FACTOR} × \`GAP_REFETCH_AFTER_SECONDS\``,
      `at most ${MAX_REFETCH_NUMBERS}`,
      `1–${MAX_WAIVER_REASON} characters`,
      'schema_invalid',
      'gaps-backfill',
      'not authorize',
    ]) {
      expect(text, fact).toContain(fact);
    }
    // Why callbacks' gaps are not requested.
    expect(text).toMatch(/Callbacks \(§7\)[^.]*snapshot/);
  });
});

const mentionsIn = (text: string) => [...text.matchAll(/`(\d{3}) ([a-z_]+)`/g)];

/** Mentions in `text` that none of `routes` answers with that status. */
function unanswered(text: string, routes: readonly ListedRoute[]): string[] {
  return mentionsIn(text)
    .filter(([, status, code]) => {
      const answered = routes.some((spec) => (problemsOf(spec) as string[]).includes(code ?? ''));
      const known = PROBLEMS[code as keyof typeof PROBLEMS];
      return !answered || String(known?.status) !== status;
    })
    .map(([mention]) => mention);
}

/** The text of one `## §n` section, up to the next section. */
function sectionText(section: string): string {
  const start = contract.indexOf(`## ${section} `);
  if (start < 0) throw new Error(`docs/contract.md has no ${section}`);
  const next = contract.indexOf('\n## ', start + 1);
  return contract.slice(start, next < 0 ? undefined : next);
}

describe('docs/contract.md §29 (operator console)', () => {
  it('states the paths, limits and port the console uses', async () => {
    const api = await import('../../../console/shared/api');
    const text = sectionText('§29');
    for (const fact of [
      `${api.CONSOLE_PATH}/`,
      `127.0.0.1:${api.DEFAULT_CONSOLE_PORT}`,
      `at most ${api.REDRIVE_MAX_PER_CLICK} messages per click`,
      `up to ${api.DEAD_LETTERS_LISTED}`,
      `newest ${api.JOURNAL_RECORDS_SHOWN} journal records`,
      `newest ${api.ACCOUNT_ITEMS_SHOWN}`,
      `${api.ACCOUNTS_PER_PAGE} at a time`,
      '"confirm": true',
      '`428`',
    ]) {
      expect(text).toContain(fact);
    }
  });
});
