import type { EventSourceRow } from '../../shared/api';
import { Empty } from '../components/load';
import { GapTable } from '../components/waive';

/** The account's ledger-event sources: where each stands, its gaps (with waive), its waivers. */
export function EventSources(props: {
  accountId: string;
  sources: readonly EventSourceRow[];
  reload: () => void;
}) {
  if (props.sources.length === 0)
    return <Empty>No ledger-event source has written to this account.</Empty>;
  return (
    <>
      {props.sources.map((s) => (
        <section key={s.source} class="source" aria-label={`Event source ${s.source}`}>
          <h3>
            <code>{s.source}</code>: last sequence {s.lastSequence}, {s.gaps.length} open gap(s)
            {s.gapsTruncated ? ' (more are missing than listed)' : ''}
          </h3>
          {s.gaps.length > 0 && (
            <GapTable
              accountId={props.accountId}
              source={s.source}
              gaps={s.gaps}
              after={props.reload}
            />
          )}
          {s.waived.length > 0 && (
            <p class="note">
              Waived: {s.waived.map((w) => `${w.number} (${w.reason})`).join('; ')}
            </p>
          )}
        </section>
      ))}
    </>
  );
}
