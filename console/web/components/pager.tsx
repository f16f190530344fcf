/**
 * "First page" once past the first, "Next page" while more follow: the pages of a listing read
 * a page at a time (the accounts, a search).
 */
export function Pager(props: {
  readonly nextCursor: string | null | undefined;
  readonly first: boolean;
  readonly paging: (cursor: string | null) => void;
}) {
  const { nextCursor } = props;
  return (
    <>
      {props.first && (
        <button type="button" onClick={() => props.paging(null)}>
          First page
        </button>
      )}
      {nextCursor && (
        <button type="button" onClick={() => props.paging(nextCursor)}>
          Next page
        </button>
      )}
    </>
  );
}
