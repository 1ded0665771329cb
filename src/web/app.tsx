// The app: who is signed in and the organization's brands are read once, then the page the
// address names is drawn in the frame. `/app` opens the first brand (or the one last picked).
import { useEffect } from 'preact/hooks';
import { get, read } from './api.ts';
import { AppContext, rememberBrand, rememberedBrand, type Me } from './context.ts';
import { Layout } from './layout.tsx';
import { useLoad } from './load.ts';
import { match, navigate, useLocation } from './router.ts';
import { hrefOf, routes } from './routes.ts';
import { PageHead, Problem } from './components/page.tsx';
import { PageBoundary } from './components/page-boundary.tsx';

function NotFound() {
  return (
    <>
      <PageHead title="Page not found" />
      <p>
        There is no page at this address. <a href="/app">Go to the overview</a>.
      </p>
    </>
  );
}

function BrandNotFound() {
  return (
    <>
      <PageHead title="Brand not found" />
      <p>
        No brand of your organizations has this address. <a href="/app">Go to the overview</a>.
      </p>
    </>
  );
}

function NoBrand() {
  return (
    <>
      <PageHead title="No brand yet" />
      <p>
        Your organization tracks no brand yet. <a href="/app/brands/new">Add your first brand</a> from its website.
      </p>
    </>
  );
}

/** A person in no organization: said so, and nothing else. */
function NoOrganization(p: { email: string }) {
  return (
    <main class="auth" id="main">
      <div class="auth-card">
        <h1>No organization</h1>
        <p>
          You are signed in as {p.email}, but you belong to no organization, so there is nothing to show. Ask an admin
          of your organization to invite you again.
        </p>
        <form method="post" action="/app/sign-out">
          <input
            type="hidden"
            name="csrf"
            value={document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''}
          />
          <button type="submit">Sign out</button>
        </form>
      </div>
    </main>
  );
}

export function App() {
  const { path, query } = useLocation();
  const loaded = useLoad(() => Promise.all([get<Me>('/me'), read('brands')]), []);
  const brands = loaded.data?.[1] ?? [];
  // A fixed path (/app/brands/new) before a pattern that would take it as a brand's id.
  const found = [...routes]
    .sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')))
    .map((route) => ({ route, params: match(route.path, path) }))
    .find((r) => r.params);
  const brandId = found?.params?.brandId ?? rememberedBrand() ?? undefined;
  const brand = brands.find((b) => b.id === brandId) ?? brands[0];
  const home = path === '/app' || path === '/app/';

  // The brand in view is remembered, so a settings page (and the way back from it) keeps it.
  useEffect(() => {
    if (found?.params?.brandId && brands.some((b) => b.id === found.params?.brandId))
      rememberBrand(found.params.brandId);
  }, [found?.params?.brandId, brands]);

  useEffect(() => {
    if (!loaded.data) return;
    if (home && brand) navigate(hrefOf(routes[0], brand.id), { replace: true });
    if (path === '/app/settings') navigate('/app/settings/keys', { replace: true });
  }, [loaded.data, path]);

  if (loaded.error) return <Problem message={loaded.error} />;
  if (!loaded.data) return null;
  const [me] = loaded.data;
  if (!me.organization) return <NoOrganization email={me.email} />;
  let page: preact.JSX.Element | null = found ? (
    <found.route.Page params={found.params ?? {}} query={query} />
  ) : (
    <NotFound />
  );
  // `/app` is on its way to the brand's overview (the effect above); nothing to draw meanwhile.
  if (home) page = brand ? null : <NoBrand />;
  // A brand's page for a brand that is not (or no longer) the organization's. (A brand of another of
  // the person's organizations switched the session to it before the page was served; while the
  // brands are read again, e.g. after one was created, the page waits for them.)
  if (found?.params?.brandId && !brands.some((b) => b.id === found.params?.brandId)) {
    page = loaded.loading ? null : <BrandNotFound />;
  }
  return (
    <AppContext.Provider value={{ me, brands, brand, reloadBrands: loaded.reload }}>
      <Layout current={found?.route}>
        <PageBoundary key={path}>{page}</PageBoundary>
      </Layout>
    </AppContext.Provider>
  );
}
