import type { ComponentChildren } from 'preact';

export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Right-aligned (amounts). */
  readonly numeric?: boolean;
}

/** A captioned table with header cells; `empty` when there are no rows. */
export function Table<T>(props: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  empty: string;
  testId?: string;
}) {
  if (props.rows.length === 0) {
    return (
      <p class="empty" data-testid={props.testId}>
        {props.empty}
      </p>
    );
  }
  return (
    <div class="table-wrap">
      <table data-testid={props.testId}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" class={c.numeric ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td key={c.label} class={c.numeric ? 'num' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
