// Every page of the app, in the order the navigation lists them. A page is a path under /app and
// a component; `nav` places it in the sidebar: under the brand in view (its path then has
// :brandId, and it may show the filter bar) or under Settings. The dashboard's pages slot in here.
import type { FunctionComponent } from 'preact';
import { Overview } from './pages/overview.tsx';
import { AnswersPage } from './pages/answers.tsx';
import { WorkspacePage } from './pages/workspace/index.tsx';
import { CompetitorsPage } from './pages/competitors.tsx';
import { CitationsPage } from './pages/citations.tsx';
import { PromptsPage } from './pages/prompts.tsx';
import { AiTrafficPage } from './pages/ai-traffic.tsx';
import { AiCrawlersPage } from './pages/ai-crawlers.tsx';
import { SiteAuditsPage } from './pages/site-audits/index.tsx';
import { ContentPage } from './pages/content/index.tsx';
import { ShoppingPage } from './pages/shopping.tsx';
import { KeysPage } from './pages/settings/keys.tsx';
import { MembersPage } from './pages/settings/members.tsx';
import { WebhooksPage } from './pages/settings/webhooks.tsx';
import { AlertsPage } from './pages/settings/alerts.tsx';
import { ReportsPage } from './pages/settings/reports.tsx';
import { UsagePage } from './pages/settings/usage.tsx';
import { ConnectPage } from './pages/settings/connect.tsx';
import { AccountPage } from './pages/settings/account.tsx';
import { NewBrandPage } from './pages/new-brand.tsx';
import { BrandSetupPage } from './pages/brand-setup.tsx';
import { PlatformsPage } from './pages/settings/platforms.tsx';
import type { PageProps } from './page-props.ts';

export interface PageRoute {
  path: string;
  /** The link's text in the navigation. */
  label: string;
  /** `none`: reached from a link on another page (New brand), not listed in the sidebar. */
  nav: 'brand' | 'settings' | 'none';
  /** Shown to admins only (the server refuses others anyway). */
  admin?: boolean;
  Page: FunctionComponent<PageProps>;
}

export const routes: PageRoute[] = [
  { path: '/app/brands/:brandId', label: 'Overview', nav: 'brand', Page: Overview },
  { path: '/app/brands/:brandId/answers', label: 'Answers', nav: 'brand', Page: AnswersPage },
  { path: '/app/brands/:brandId/competitors', label: 'Competitors', nav: 'brand', Page: CompetitorsPage },
  { path: '/app/brands/:brandId/citations', label: 'Citations', nav: 'brand', Page: CitationsPage },
  { path: '/app/brands/:brandId/prompts', label: 'Prompts', nav: 'brand', Page: PromptsPage },
  { path: '/app/brands/:brandId/ai-traffic', label: 'AI traffic', nav: 'brand', Page: AiTrafficPage },
  { path: '/app/brands/:brandId/ai-crawlers', label: 'AI crawlers', nav: 'brand', Page: AiCrawlersPage },
  { path: '/app/brands/:brandId/site-audits', label: 'Site audits', nav: 'brand', Page: SiteAuditsPage },
  {
    path: '/app/brands/:brandId/content-opportunities',
    label: 'Content opportunities',
    nav: 'brand',
    Page: ContentPage,
  },
  { path: '/app/brands/:brandId/shopping', label: 'Shopping', nav: 'brand', Page: ShoppingPage },
  {
    path: '/app/brands/:brandId/settings',
    label: 'Workspace settings',
    nav: 'brand',
    Page: WorkspacePage,
  },
  { path: '/app/settings/keys', label: 'API keys', nav: 'settings', Page: KeysPage },
  { path: '/app/settings/members', label: 'Members', nav: 'settings', Page: MembersPage },
  { path: '/app/settings/webhooks', label: 'Webhooks', nav: 'settings', Page: WebhooksPage },
  { path: '/app/settings/alerts', label: 'Alerts', nav: 'settings', Page: AlertsPage },
  { path: '/app/settings/reports', label: 'Reports', nav: 'settings', Page: ReportsPage },
  { path: '/app/settings/usage', label: 'Usage', nav: 'settings', Page: UsagePage },
  { path: '/app/settings/platforms', label: 'Platforms', nav: 'settings', Page: PlatformsPage },
  { path: '/app/settings/connect', label: 'Connect', nav: 'settings', Page: ConnectPage },
  { path: '/app/settings/account', label: 'Account', nav: 'settings', Page: AccountPage },
  { path: '/app/brands/new', label: 'New brand', nav: 'none', Page: NewBrandPage },
  { path: '/app/brands/:brandId/setup', label: 'Set up tracking', nav: 'none', Page: BrandSetupPage },
];

/** A route's path with the brand filled in. */
export const hrefOf = (route: PageRoute, brandId: string | undefined) =>
  route.path.replace(':brandId', encodeURIComponent(brandId ?? ''));
