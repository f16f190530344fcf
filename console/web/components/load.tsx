import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'failed'; readonly error: string }
  | { readonly state: 'ready'; readonly data: T };

/**
 * GETs `path` on mount and whenever `reload` is called. What was loaded for another path is
 * never shown under this one: a new path reads as loading until its own answer is there.
 */
export function useLoad<T>(path: string): [Loaded<T>, () => void] {
  const [held, setHeld] = useState<{ path: string; loaded: Loaded<T> }>({
    path,
    loaded: { state: 'loading' },
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    // A reload keeps what is shown until the new data is there: nothing on the page unmounts.
    setHeld((previous) =>
      previous.path === path && previous.loaded.state === 'ready'
        ? previous
        : { path, loaded: { state: 'loading' } },
    );
    const settle = (loaded: Loaded<T>) => current && setHeld({ path, loaded });
    getJson<T>(path).then(
      (data) => settle({ state: 'ready', data }),
      (error: unknown) =>
        settle({ state: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [path, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [held.path === path ? held.loaded : { state: 'loading' }, reload];
}

/** The loading and error states of a page, then its content. */
export function Load<T>(props: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === 'loading') {
    return (
      <p class="loading" role="status" aria-live="polite">
        Loading {props.what}…
      </p>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <ErrorText>
        Could not load {props.what}: {loaded.error}
      </ErrorText>
    );
  }
  return <>{props.children(loaded.data)}</>;
}

export function ErrorText(props: { children: ComponentChildren }) {
  return (
    <p class="error" role="alert">
      {props.children}
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}
