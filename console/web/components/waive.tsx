import { useState } from 'preact/hooks';
import { CONSOLE_ROUTES, type GapRow, type WaiveResult } from '../../shared/api';
import { postAction } from '../api';
import { ConfirmButton } from './confirm';
import { when } from './format';
import { Table } from './table';

let dialogs = 0;

/** Waives gap numbers of one source: the producer's waiver, sent by the operator. */
export function WaiveButton(props: {
  accountId: string;
  source: string;
  numbers: readonly number[];
  label: string;
  after: () => void;
}) {
  const [reason, setReason] = useState('');
  const [id] = useState(() => `waive-reason-${++dialogs}`);
  const list = props.numbers.join(', ');
  return (
    <ConfirmButton<WaiveResult>
      label={props.label}
      title={`Waive gap ${list} of ${props.source}?`}
      notReady={reason.trim() === '' ? 'Give a reason first' : undefined}
      run={() =>
        postAction<WaiveResult>(CONSOLE_ROUTES.waive, {
          accountId: props.accountId,
          source: props.source,
          numbers: props.numbers,
          reason: reason.trim(),
        })
      }
      done={(r) =>
        r.outcome === 'waived'
          ? r.waived.length > 0
            ? `Waived ${r.waived.join(', ')}.`
            : `Nothing waived: ${r.ignored.join(', ')} no longer open.`
          : `Not waived (${r.outcome}).`
      }
      after={props.after}
    >
      <p>
        The numbers {list} of source <code>{props.source}</code> on account{' '}
        <code>{props.accountId}</code> will be declared lost for good: the gaps close and their
        events are no longer expected. This is recorded with your user name.
      </p>
      <label for={id}>Reason (required)</label>
      <textarea
        id={id}
        rows={2}
        maxLength={400}
        value={reason}
        onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)}
      />
    </ConfirmButton>
  );
}

/** A source's open gaps, each with its own waive button, and one for every overdue gap. */
export function GapTable(props: {
  accountId: string;
  source: string;
  gaps: readonly GapRow[];
  after: () => void;
}) {
  const overdue = props.gaps.filter((g) => g.overdue).map((g) => g.number);
  return (
    <>
      <Table
        testId={`gaps-${props.source}`}
        caption={`Open gaps of ${props.source}`}
        rows={props.gaps}
        rowKey={(g) => String(g.number)}
        empty="No open gaps."
        columns={[
          { label: 'Number', cell: (g) => g.number, numeric: true },
          { label: 'Opened', cell: (g) => when(g.openedAt) },
          { label: 'Re-fetch requested', cell: (g) => when(g.refetchRequestedAt) },
          { label: 'Overdue', cell: (g) => (g.overdue ? <strong>overdue</strong> : 'no') },
          {
            label: 'Action',
            cell: (g) => (
              <WaiveButton
                accountId={props.accountId}
                source={props.source}
                numbers={[g.number]}
                label={`Waive ${g.number}`}
                after={props.after}
              />
            ),
          },
        ]}
      />
      {overdue.length > 1 && (
        <WaiveButton
          accountId={props.accountId}
          source={props.source}
          numbers={overdue}
          label={`Waive all ${overdue.length} overdue`}
          after={props.after}
        />
      )}
    </>
  );
}
