// The frame of every signed-in page: a skip link, the sidebar (wordmark, the Organization select for
// a person in several, brand picker, the brand's pages, Settings, who is signed in and Sign out) and
// the page itself. On a phone the
// sidebar folds behind a `Menu` button, so the first screen is the page's title and figures.
// Every link of the sidebar and the brand picker carries the filters of the address in view.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf, post, read } from './api.ts';
import { useApp, rememberBrand } from './context.ts';
import { importSourcesOf } from './components/filter-bar.tsx';
import { keepFilters } from './filter-keys.ts';
import { followAppLinks, followLink, navigate } from './router.ts';
import { hrefOf, routes, type PageRoute } from './routes.ts';

function NavList(p: { heading: string; id: string; items: PageRoute[]; current?: PageRoute; brandId?: string }) {
  return (
    <div>
      <h2 class="nav-heading" id={p.id}>
        {p.heading}
      </h2>
      <ul aria-labelledby={p.id}>
        {p.items.map((r) => (
          <li key={r.path}>
            <a
              href={keepFilters(hrefOf(r, p.brandId))}
              onClick={followLink}
              aria-current={r === p.current ? 'page' : undefined}
            >
              {r.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function BrandPicker() {
  const { brands, brand } = useApp();
  const add = (
    <a class="new-brand" href="/app/brands/new" onClick={followLink}>
      New brand
    </a>
  );
  if (!brands.length) return <div class="brand-picker">{add}</div>;
  return (
    <div class="brand-picker">
      <label for="brand-picker">Brand</label>
      <select
        id="brand-picker"
        value={brand?.id}
        onChange={async (e) => {
          const id = e.currentTarget.value;
          if (id === brand?.id) return;
          rememberBrand(id);
          // On a brand's page, the same page of the other brand; elsewhere the page stays.
          const onBrandPage = location.pathname.startsWith('/app/brands/');
          if (!onBrandPage) return navigate(location.pathname + location.search);
          const path = location.pathname.replace(/^\/app\/brands\/[^/]+/, `/app/brands/${id}`);
          navigate(keepFilters(path, await filtersForBrand(brand?.id, id)));
        }}
      >
        {brands.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
      {add}
    </div>
  );
}

/**
 * The filters of the address in view, for another brand: dates, platform/model and region as they
 * are; a topic is the brand's own, so it becomes the other brand's topic of the same name, or is
 * left out when that brand has none (a topic id of another brand would only find nothing). A
 * source is kept only when the other brand imported from it too: a name it never imported from
 * makes every figure a 400.
 */
async function filtersForBrand(fromId: string | undefined, toId: string): Promise<URLSearchParams> {
  const query = new URLSearchParams(location.search);
  const source = query.get('source');
  if (source) {
    query.delete('source');
    try {
      const sources = await importSourcesOf(toId);
      if (sources.some((s) => s.source === source)) query.set('source', source);
    } catch {
      /* the sources could not be read: the other brand's own answers are shown */
    }
  }
  const topicId = query.get('topic_id');
  if (!topicId || !fromId) return query;
  query.delete('topic_id');
  try {
    const [from, to] = await Promise.all([
      read('topics', { brand_id: fromId }, 'first'),
      read('topics', { brand_id: toId }, 'first'),
    ]);
    const name = from.find((t) => t.id === topicId)?.name;
    const same = to.find((t) => t.name === name);
    if (same) query.set('topic_id', same.id);
  } catch {
    /* the topics could not be read: the other filters still follow */
  }
  return query;
}

/** Switches the session's organization; the app starts again on its first brand. */
function OrganizationPicker() {
  const { me } = useApp();
  const [problem, setProblem] = useState<string>();
  if (me.organizations.length < 2) return null;
  return (
    <div class="brand-picker">
      <label for="organization-picker">Organization</label>
      <select
        id="organization-picker"
        value={me.organization?.id}
        onChange={async (e) => {
          const id = e.currentTarget.value;
          setProblem(undefined);
          try {
            await post('/organization', { organization_id: id });
            location.assign('/app');
          } catch (err) {
            setProblem(messageOf(err));
          }
        }}
      >
        {me.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

function csrf(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export function Layout(p: { current?: PageRoute; children: ComponentChildren }) {
  // In-app links anywhere on a page navigate in place (Enter on a link is a click too).
  useEffect(() => {
    addEventListener('click', followAppLinks);
    return () => removeEventListener('click', followAppLinks);
  }, []);
  const { me, brand } = useApp();
  // The folded menu (phones) closes whenever the page changes.
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [p.current, brand?.id]);
  const visible = routes.filter((r) => !r.admin || me.role === 'admin');
  const brandPages = visible.filter((r) => r.nav === 'brand');
  return (
    <div class="frame">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <aside class={`sidebar${open ? ' is-open' : ''}`}>
        <div class="sidebar-top">
          <p class="wordmark">
            <span class="wordmark-dot" aria-hidden="true" />
            Answerscope
          </p>
          <button
            type="button"
            class="menu-button"
            aria-expanded={open ? 'true' : 'false'}
            aria-controls="sidebar-menu"
            onClick={() => setOpen(!open)}
          >
            Menu
          </button>
        </div>
        <div class="sidebar-menu" id="sidebar-menu">
          <OrganizationPicker />
          <BrandPicker />
          <nav aria-label="Main">
            {brand && brandPages.length > 0 && (
              <NavList heading={brand.name} id="nav-brand" items={brandPages} current={p.current} brandId={brand.id} />
            )}
            <NavList
              heading="Settings"
              id="nav-settings"
              items={visible.filter((r) => r.nav === 'settings')}
              current={p.current}
            />
          </nav>
          <div class="sidebar-foot">
            <p class="who">
              <span class="muted">Signed in as</span>
              <span class="email" title={me.email}>
                {me.email}
              </span>
              {me.organization && <span class="muted">{me.organization.name}</span>}
            </p>
            <form method="post" action="/app/sign-out">
              <input type="hidden" name="csrf" value={csrf()} />
              <button type="submit">Sign out</button>
            </form>
          </div>
        </div>
      </aside>
      <main class="page" id="main">
        {p.children}
      </main>
    </div>
  );
}
