// The frame of every signed-in page: a skip link, the sidebar (wordmark, the Organization select for
// a person in several, brand picker, the brand's pages, Settings, who is signed in and Sign out) and
// the page itself.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf, post } from './api.ts';
import { useApp, rememberBrand } from './context.ts';
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
            <a href={hrefOf(r, p.brandId)} onClick={followLink} aria-current={r === p.current ? 'page' : undefined}>
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
  if (!brands.length) return null;
  return (
    <div class="brand-picker">
      <label for="brand-picker">Brand</label>
      <select
        id="brand-picker"
        value={brand?.id}
        onChange={(e) => {
          const id = e.currentTarget.value;
          rememberBrand(id);
          // On a brand's page, the same page of the other brand; elsewhere the page stays.
          const onBrandPage = location.pathname.startsWith('/app/brands/');
          navigate(
            onBrandPage
              ? location.pathname.replace(/^\/app\/brands\/[^/]+/, `/app/brands/${id}`)
              : location.pathname + location.search,
          );
        }}
      >
        {brands.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
    </div>
  );
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
  const visible = routes.filter((r) => !r.admin || me.role === 'admin');
  const brandPages = visible.filter((r) => r.nav === 'brand');
  return (
    <div class="frame">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <aside class="sidebar">
        <p class="wordmark">
          <span class="wordmark-dot" aria-hidden="true" />
          Answerscope
        </p>
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
      </aside>
      <main class="page" id="main">
        {p.children}
      </main>
    </div>
  );
}
