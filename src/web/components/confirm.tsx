// A confirmation before anything that cannot be undone (revoking a key, removing a member). The
// native modal <dialog> keeps focus inside and closes on Escape; focus starts on Cancel, the safe
// choice, and returns to the button that opened it.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface ConfirmProps {
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function Confirm(p: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Before the next paint (not after it, as useEffect would): the dialog appears with focus already
  // on Cancel, so a key pressed at once acts in the dialog, never on the page behind it.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    cancel.current?.focus();
    return () => opener?.focus();
  }, []);
  const confirm = async () => {
    setBusy(true);
    try {
      await p.onConfirm();
      p.onClose();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={p.onClose}>
      <h2 id="confirm-title" class="dialog-title">
        {p.title}
      </h2>
      {p.children}
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" ref={cancel} onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="button" class="danger solid" onClick={confirm} disabled={busy}>
          {p.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
