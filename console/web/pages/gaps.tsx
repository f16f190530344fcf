import { CONSOLE_ROUTES, type GapsPage as Page } from '../../shared/api';
import { Empty, Load, useLoad } from '../components/load';
import { GapTable } from '../components/waive';

/** Every source with open gaps, overdue first; each gap can be waived where it is listed. */
export function GapsPage() {
  const [loaded, reload] = useLoad<Page>(CONSOLE_ROUTES.gaps);
  return (
    <section aria-labelledby="gaps-title">
      <h1 id="gaps-title">Overdue gaps</h1>
      <Load loaded={loaded} what="the gaps">
        {(page) => (
          <>
            <p class="note">
              A gap is overdue once it has been open for {page.overdueAfterSeconds} s (the alarm on
              OverdueGaps); sources with overdue gaps come first.
            </p>
            {page.sources.length === 0 ? (
              <Empty>No ledger-event source has an open gap.</Empty>
            ) : (
              page.sources.map((s) => (
                <section
                  key={`${s.accountId}|${s.source}`}
                  class="source"
                  aria-label={`Gaps of ${s.source}`}
                >
                  <h2>
                    <code>{s.source}</code> on account{' '}
                    <a href={`#/accounts/${encodeURIComponent(s.accountId)}`}>{s.accountId}</a>:{' '}
                    {s.gaps.filter((g) => g.overdue).length} overdue of {s.gaps.length}
                  </h2>
                  <GapTable
                    accountId={s.accountId}
                    source={s.source}
                    gaps={s.gaps}
                    after={reload}
                  />
                </section>
              ))
            )}
          </>
        )}
      </Load>
    </section>
  );
}
