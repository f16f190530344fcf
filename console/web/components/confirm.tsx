import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { announce } from './notice';

/**
 * A button whose action runs only after a modal confirmation (a native <dialog>: focus stays
 * inside, Escape cancels). The outcome or the error is announced in the page's live region.
 */
export function ConfirmButton<T>(props: {
  label: string;
  title: string;
  children: ComponentChildren;
  disabled?: boolean;
  /** Why Confirm is not enabled yet (a required field still empty); absent: it is. */
  notReady?: string;
  run: () => Promise<T>;
  done: (result: T) => string;
  after?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);

  async function confirm() {
    setOpen(false);
    setBusy(true);
    try {
      const result = await props.run();
      announce({ ok: true, text: props.done(result) });
      props.after?.();
    } catch (error) {
      announce({
        ok: false,
        text: `${props.label} failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span class="action">
      <button
        type="button"
        disabled={props.disabled || busy}
        onClick={() => {
          announce(undefined);
          setOpen(true);
        }}
      >
        {busy ? `${props.label}…` : props.label}
      </button>
      <dialog ref={dialog} aria-label={props.title} onClose={() => setOpen(false)}>
        <h2>{props.title}</h2>
        <div>{props.children}</div>
        <p class="buttons">
          <button
            type="button"
            class="primary"
            disabled={props.notReady !== undefined}
            title={props.notReady}
            onClick={() => void confirm()}
          >
            Confirm
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </p>
      </dialog>
    </span>
  );
}
