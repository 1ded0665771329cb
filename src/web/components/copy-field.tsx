// A secret or link shown once, read-only, with a Copy button; the button says when it has copied.
import { useRef, useState } from 'preact/hooks';

export function CopyField(p: { id: string; label: string; value: string; hint?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.value);
    } catch {
      // No clipboard permission: select the text so Ctrl+C copies it.
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <div class="copy-row">
        <input
          id={p.id}
          ref={input}
          readOnly
          value={p.value}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby={p.hint ? `${p.id}-hint` : undefined}
          spellcheck={false}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="hint" id={`${p.id}-hint`} aria-live="polite">
        {copied ? 'Copied.' : p.hint}
      </p>
    </div>
  );
}
