// The pieces every page is made of: its heading (focused when the page is opened from a link, so
// keyboard and screen-reader users land on it), panels, and the states of data being loaded.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let firstPage = true;

export function PageHead(p: { title: string; intro?: ComponentChildren; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${p.title} · Answerscope`;
    // The first page keeps the browser's own focus; later ones move it to their heading.
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, [p.title]);
  return (
    <header class="page-head">
      <div>
        <h1 ref={heading} tabIndex={-1}>
          {p.title}
        </h1>
        {p.intro && <p>{p.intro}</p>}
      </div>
      {p.children && <div class="actions">{p.children}</div>}
    </header>
  );
}

export function Panel(p: {
  title: string;
  id?: string;
  actions?: ComponentChildren;
  /** Its figures are being replaced by those of new filters. */
  busy?: boolean;
  children: ComponentChildren;
}) {
  const id = p.id ?? `panel-${p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="panel" aria-labelledby={id} aria-busy={p.busy ? 'true' : undefined}>
      <div class="panel-head">
        <h2 id={id}>{p.title}</h2>
        {p.actions}
      </div>
      {p.children}
    </section>
  );
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function Problem(p: { message: string }) {
  return (
    <p class="form-error" role="alert">
      {p.message}
    </p>
  );
}

/** What stands in for data not here yet (useLoad): its failure, or Loading… until it arrives. */
export function Pending(p: { load: { data: unknown; error: string | undefined } }) {
  if (p.load.error) return <Problem message={p.load.error} />;
  return p.load.data ? null : <Loading />;
}

export function Empty(p: { children: ComponentChildren }) {
  return <p class="empty">{p.children}</p>;
}
