// A brand proposed from its website (docs/app.md "Your first brand"): the home page is fetched
// under the site audits' address rules (fetchHtml: private and loopback addresses refused on every
// hop unless ALLOW_PRIVATE_URLS=1) and read for the names the site gives itself: the JSON-LD
// Organization's name, alternateName and legalName, og:site_name, and the <title>'s parts. The
// person edits the proposal before anything is created; nothing here writes.
import { hostToDomain } from '../tracking/analysis/urls.ts';
import { AuditFailure, fetchHtml } from './audit.ts';
import { clean, nodesOf, parsePage } from './page.ts';

export interface BrandProposal {
  /** The address that answered, after redirects. */
  website: string;
  name: string;
  domain: string;
  aliases: string[];
}

const ORGANIZATION_TYPES = ['Organization', 'Corporation', 'LocalBusiness', 'OnlineStore', 'Store', 'Brand'];
const MAX_ALIASES = 5;
const MAX_NAME = 100;

/** `acme.example` or `https://acme.example/x`: an http(s) URL, https assumed without a scheme. */
export function websiteUrl(input: string): string {
  const text = input.trim();
  if (!text) throw new AuditFailure('website is required');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AuditFailure('website must be an address such as acme.example');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AuditFailure('website must be an http or https address');
  }
  if (!url.hostname.includes('.') && url.hostname !== 'localhost') {
    throw new AuditFailure('website must be an address such as acme.example');
  }
  return url.toString();
}

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [clean(v)] : Array.isArray(v) ? v.flatMap(strings) : [];

/** The title's parts: "Acme | Trail shoes" -> ["Acme", "Trail shoes"]. */
const titleParts = (title: string | null): string[] =>
  (title ?? '')
    .split(/\s+[|–—·:-]\s+/)
    .map(clean)
    .filter(Boolean);

/** Whether `name` looks like the site's own name: its letters appear in the domain's first label. */
function matchesDomain(name: string, domain: string): boolean {
  const letters = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const label = domain.split('.')[0].replace(/[^a-z0-9]/g, '');
  return letters.length > 1 && (label.includes(letters) || letters.includes(label));
}

export async function proposeBrand(
  website: string,
  opts: { allowPrivate: boolean; timeoutMs: number; addressCheck?: (ip: string) => string | null },
): Promise<BrandProposal> {
  const { res, html } = await fetchHtml(websiteUrl(website), opts);
  const page = parsePage(html, res.url);
  const domain = hostToDomain(page.url.hostname);
  const organizations = nodesOf(page, ORGANIZATION_TYPES);
  const ldNames = organizations.flatMap((n) => strings(n.data.name));
  const ldOthers = organizations.flatMap((n) => [...strings(n.data.alternateName), ...strings(n.data.legalName)]);
  const siteName = page.meta('og:site_name');
  const parts = titleParts(page.title);
  // The site's own word for itself first; a title part only when it looks like the domain, or as a
  // last resort the first part (or the domain's first label, capitalised).
  const fromTitle = parts.find((p) => matchesDomain(p, domain));
  const label = domain.split('.')[0];
  const candidates = [
    ...ldNames,
    siteName ?? '',
    fromTitle ?? '',
    parts[0] ?? '',
    label[0].toUpperCase() + label.slice(1),
  ]
    .map((n) => n.slice(0, MAX_NAME))
    .filter(Boolean);
  const name = candidates[0];
  const seen = new Set([name.toLowerCase()]);
  const aliases: string[] = [];
  for (const a of [...ldNames, ...ldOthers, siteName ?? '', fromTitle ?? '']) {
    const alias = a.slice(0, MAX_NAME);
    if (!alias || seen.has(alias.toLowerCase()) || aliases.length >= MAX_ALIASES) continue;
    seen.add(alias.toLowerCase());
    aliases.push(alias);
  }
  return { website: res.url, name, domain, aliases };
}
