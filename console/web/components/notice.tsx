import { useEffect, useState } from 'preact/hooks';

/**
 * The outcome of the last action, announced in one live region of the page: the button that
 * started it may be gone once the page reloads its data (a waived gap leaves its table).
 */
export interface Notice {
  readonly ok: boolean;
  readonly text: string;
}

const listeners = new Set<(notice: Notice | undefined) => void>();

export function announce(notice: Notice | undefined): void {
  for (const listener of listeners) listener(notice);
}

export function Notices() {
  const [notice, setNotice] = useState<Notice | undefined>();
  useEffect(() => {
    listeners.add(setNotice);
    const clear = () => setNotice(undefined);
    addEventListener('hashchange', clear);
    return () => {
      listeners.delete(setNotice);
      removeEventListener('hashchange', clear);
    };
  }, []);
  return (
    <div class="notices">
      <p role="status" aria-live="polite" class="outcome">
        {notice?.ok ? notice.text : ''}
      </p>
      <p role="alert" class="error">
        {notice && !notice.ok ? notice.text : ''}
      </p>
    </div>
  );
}
