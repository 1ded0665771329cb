// The app's address is its state: pages are paths under /app, filters live in the query string.
// A tiny history router: links are real <a href> (open in a new tab, copy, keyboard all work) and
// a plain click is turned into a history push without a page load.
import { useEffect, useState } from 'preact/hooks';
import { keepFilters } from './filter-keys.ts';

export function navigate(href: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current path and query; re-renders on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [href, setHref] = useState(location.pathname + location.search);
  useEffect(() => {
    const update = () => setHref(location.pathname + location.search);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  const url = new URL(href, location.origin);
  return { path: url.pathname, query: url.searchParams };
}

/** Matches `/app/brands/:id` style patterns; the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

/** Click handler for in-app links: a plain left click navigates in place; anything else is the browser's. */
export function followLink(event: MouseEvent): void {
  const a = (event.currentTarget as HTMLElement).closest('a');
  if (!a || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || a.target) return;
  event.preventDefault();
  navigate(keepFilters(a.getAttribute('href') ?? '/app'));
}

/**
 * Delegated click handler for a whole region: a plain left click on an in-app link (`/app/...`,
 * not a download, not a new tab) navigates in place, so pages need no handler on every link.
 */
export function followAppLinks(event: MouseEvent): void {
  const a = (event.target as HTMLElement | null)?.closest?.('a');
  if (!a || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || a.target || a.hasAttribute('download'))
    return;
  const href = a.getAttribute('href') ?? '';
  if (!href.startsWith('/app/') || href.startsWith('/app/api/') || href.startsWith('/app/assets/')) return;
  event.preventDefault();
  // Filters follow the person: a link that names none of its own carries the page's.
  navigate(keepFilters(href));
  scrollTo(0, 0);
}
