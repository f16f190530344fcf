import { JOURNAL_RETRY_WINDOW_SECONDS } from '../../contract/journal';
import type { JournalRecord } from '../journal/model';
import {
  type Checkpoint,
  checkBalance,
  checkEntry,
  checkEntrySum,
  checkHashChain,
  checkHolds,
  checkJournal,
  checkZeroSum,
  type Finding,
  type LiveAccount,
  type Mismatch,
  type MovementGroup,
} from './model';
import type { ChangedAccount, ReconcilePort } from './port';

/** Records read per page: one Query, and one BatchGet of their entries. */
const RECORDS_PER_PAGE = 100;

export interface ReconcileOptions {
  readonly shardCount: number;
  readonly clock: () => Date;
  /**
   * How long a journal may trail its account's `version` before that is a finding (§30).
   * @default JOURNAL_RETRY_WINDOW_SECONDS (24 h, the stream's retention)
   */
  readonly journalRetryWindowSeconds?: number;
  /** Stop starting new accounts after this long; the rest waits for the next run. */
  readonly budgetMs?: number;
}

export interface ReconcileReport {
  readonly accounts: number;
  readonly records: number;
  /** Findings written by this run (a finding already recorded is not counted again). */
  readonly findings: readonly Finding[];
  /** Accounts whose checks needing a still account were left for the next run (it moved). */
  readonly moved: number;
  readonly truncated: boolean;
}

/**
 * The reconciler (docs/contract.md §19): for each account the projector marked, checks its new
 * journal records (a)–(d) and, when the account still stands at the journal's end, compares the
 * live account. Each account's checkpoint moves only after its findings are written, so a run
 * that dies resumes where it stopped. It reads money and never writes it.
 */
export class Reconciler {
  constructor(
    private readonly port: ReconcilePort,
    private readonly options: ReconcileOptions,
  ) {}

  async run(): Promise<ReconcileReport> {
    const started = Date.now();
    const report = { accounts: 0, records: 0, findings: [] as Finding[], moved: 0 };
    for (let shard = 0; shard < this.options.shardCount; shard++) {
      let start: string | undefined;
      do {
        const page = await this.port.changedAccounts(shard, start);
        for (const account of page.items) {
          if (this.overBudget(started)) return { ...report, truncated: true };
          const outcome = await this.account(account);
          report.accounts++;
          report.records += outcome.records;
          report.findings.push(...outcome.findings);
          if (outcome.moved) report.moved++;
        }
        start = page.next;
      } while (start !== undefined);
    }
    return { ...report, truncated: false };
  }

  private overBudget(started: number): boolean {
    const { budgetMs } = this.options;
    return budgetMs !== undefined && Date.now() - started > budgetMs;
  }

  /** One account: its new records page by page, then the live comparisons. */
  private async account(changed: ChangedAccount) {
    const { accountId } = changed;
    const stored = await this.linked(await this.port.readCheckpoint(accountId));
    let checkpoint = stored.checkpoint;
    const findings: Finding[] = await this.record(accountId, stored.rewritten);
    const groups = new Set<string>();
    let records = 0;
    for (let from = (checkpoint?.checkedSequence ?? 0) + 1; from <= changed.lastSequence; ) {
      const to = Math.min(changed.lastSequence, from + RECORDS_PER_PAGE - 1);
      const page = await this.port.readRecords(accountId, from, to);
      const mismatches = [
        ...checkJournal(page, checkpoint),
        ...checkHashChain(page, checkpoint),
        ...(await this.entries(page)),
        ...(await this.zeroSums(page, groups)),
      ];
      if (page.length < to - from + 1 && page.at(-1)?.sequence !== to) {
        mismatches.push(missingTail(to, page.at(-1)?.sequence ?? from - 1));
      }
      findings.push(...(await this.record(accountId, mismatches)));
      records += page.length;
      const last = page.at(-1);
      checkpoint = {
        accountId,
        checkedSequence: to,
        balanceAfter: last?.balanceAfter ?? checkpoint?.balanceAfter ?? 0,
        availableAfter: last?.availableAfter ?? checkpoint?.availableAfter ?? 0,
        ...hashOf(last ? last.hash : checkpoint?.hash),
        ...(checkpoint?.fullPassDone ? { fullPassDone: true as const } : {}),
      };
      await this.port.saveCheckpoint(checkpoint);
      from = to + 1;
    }
    const live = await this.live(checkpoint ?? unchecked(accountId), checkpoint !== undefined);
    findings.push(...live.findings);
    if (!live.moved) await this.port.clearMarker(changed);
    return { records, findings, moved: live.moved };
  }

  /**
   * The checkpoint's record, read again on each visit: the hash the checkpoint keeps outside the
   * records must still be its record's (docs/contract.md §31), else the journal was rewritten
   * since it was checked (a finding `hash_chain` at that sequence). A checkpoint saved before the
   * chain (§27) has no hash: it takes its record's, so the next one is checked against it.
   */
  private async linked(
    checkpoint: Checkpoint | undefined,
  ): Promise<{ checkpoint: Checkpoint | undefined; rewritten: Mismatch[] }> {
    if (!checkpoint || checkpoint.checkedSequence === 0) return { checkpoint, rewritten: [] };
    const { accountId, checkedSequence: sequence, hash } = checkpoint;
    const [record] = await this.port.readRecords(accountId, sequence, sequence);
    if (hash === undefined)
      return { checkpoint: { ...checkpoint, ...hashOf(record?.hash) }, rewritten: [] };
    if (record?.hash === hash) return { checkpoint, rewritten: [] };
    const actual = record?.hash ?? 'missing';
    const detail = `journal record ${sequence}: its hash is ${actual}, the reconciler's checkpoint kept ${hash} (rewritten since checked)`;
    // Reported once, at the record rewritten; the records after it link to what it holds now.
    return {
      checkpoint: { ...checkpoint, ...hashOf(record?.hash) },
      rewritten: [{ check: 'hash_chain', sequence, expected: hash, actual, detail }],
    };
  }

  private async entries(page: readonly JournalRecord[]): Promise<Mismatch[]> {
    const refs = page.flatMap((r) =>
      r.entryId === undefined ? [] : [{ accountId: r.accountId, entryId: r.entryId }],
    );
    if (refs.length === 0) return [];
    const found = await this.port.readEntries(refs);
    return page.flatMap((r) =>
      r.entryId === undefined ? [] : checkEntry(r, found.get(r.entryId)),
    );
  }

  /** (d) once per group and run, at the first record of this account that names it. */
  private async zeroSums(page: readonly JournalRecord[], seen: Set<string>): Promise<Mismatch[]> {
    const found: Mismatch[] = [];
    for (const record of page) {
      const group = groupOf(record);
      if (!group || seen.has(`${group.kind}:${group.id}`)) continue;
      seen.add(`${group.kind}:${group.id}`);
      const read: MovementGroup | undefined = await this.port.readGroup(group.kind, group.id);
      const actual = read ?? { ...group, expectedLegs: 2, legs: [] };
      found.push(...checkZeroSum(actual, record.sequence));
    }
    return found;
  }

  /**
   * The live account against the journal's end, and its holds — only when a re-read shows the
   * account at the same version as the journal: a change in between would be a false finding.
   */
  private async live(
    end: Checkpoint,
    checked: boolean,
  ): Promise<{ findings: Finding[]; moved: boolean }> {
    const before = await this.port.readAccount(end.accountId);
    if (!before) return { findings: [], moved: false };
    if (before.version > end.checkedSequence) return this.trailing(end, before.version);
    if (!checked) return { findings: [], moved: false };
    const old = !before.journalFromCreation && !end.fullPassDone;
    if (before.version !== end.checkedSequence) return { findings: [], moved: true };
    const reserved = await this.port.reservedByActiveHolds(end.accountId);
    const sum = old ? await this.port.sumEntries(end.accountId) : undefined;
    const after = await this.port.readAccount(end.accountId);
    if (!after || !sameState(before, after)) return { findings: [], moved: true };
    const mismatches = [
      ...checkBalance(end, after),
      ...checkHolds(after, reserved, end.checkedSequence),
      ...(sum === undefined ? [] : checkEntrySum(after, sum)),
    ];
    const findings = await this.record(end.accountId, mismatches);
    if (old) await this.port.saveCheckpoint({ ...end, fullPassDone: true });
    return { findings, moved: false };
  }

  /**
   * The journal ends before `version`: the account moved on since, or its records never came.
   * The first missing record is remembered with the time it was first seen missing; still
   * missing after the projector's retry window, it is a `journal_version_gap` finding (§30).
   */
  private async trailing(end: Checkpoint, version: number) {
    const missing = end.checkedSequence + 1;
    const now = this.options.clock();
    const since = end.trailing?.sequence === missing ? Date.parse(end.trailing.since) : undefined;
    if (since === undefined) {
      const trailing = { sequence: missing, since: now.toISOString() };
      await this.port.saveCheckpoint({ ...end, trailing });
      return { findings: [], moved: true };
    }
    const window = this.options.journalRetryWindowSeconds ?? JOURNAL_RETRY_WINDOW_SECONDS;
    if (now.getTime() - since <= window * 1000) return { findings: [], moved: true };
    const findings = await this.record(end.accountId, [
      {
        check: 'journal_version_gap',
        sequence: missing,
        expected: missing,
        actual: end.checkedSequence,
        detail:
          `the journal ends at record ${end.checkedSequence} but the account is at version ` +
          `${version}; record ${missing} has been missing since ${new Date(since).toISOString()}, ` +
          `longer than the projector retries (${window} s)`,
      },
    ]);
    return { findings, moved: false };
  }

  private async record(accountId: string, mismatches: readonly Mismatch[]): Promise<Finding[]> {
    const detectedAt = this.options.clock().toISOString();
    const written: Finding[] = [];
    for (const mismatch of mismatches) {
      const finding: Finding = { accountId, detectedAt, ...mismatch };
      if (await this.port.recordFinding(finding)) written.push(finding);
    }
    return written;
  }
}

function groupOf(record: JournalRecord): { kind: MovementGroup['kind']; id: string } | undefined {
  if (record.kind === 'transfer_out' || record.kind === 'transfer_in') {
    return record.transferId === undefined
      ? undefined
      : { kind: 'transfer', id: record.transferId };
  }
  if (record.kind === 'ledger_debit' || record.kind === 'ledger_credit') {
    const id = record.ledgerTransactionId;
    return id === undefined ? undefined : { kind: 'ledger_transaction', id };
  }
  return undefined;
}

const hashOf = (hash: string | undefined) => (hash === undefined ? {} : { hash });

const sameState = (a: LiveAccount, b: LiveAccount) =>
  a.version === b.version && a.balance === b.balance && a.available === b.available;

/** Where an account without a checkpoint stands: nothing checked yet. */
const unchecked = (accountId: string): Checkpoint => ({
  accountId,
  checkedSequence: 0,
  balanceAfter: 0,
  availableAfter: 0,
});

function missingTail(to: number, last: number): Mismatch {
  return {
    check: 'journal',
    sequence: last + 1,
    expected: to,
    actual: last,
    detail: `journal records ${last + 1}…${to} are missing (the marker names ${to})`,
  };
}
