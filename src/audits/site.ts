// The site-level files an audit reads beside the page: robots.txt, llms.txt and the sitemap.
// Each is fetched through the same safe fetcher; a failure here never fails the audit, it becomes
// the evidence of the signal that reads the file.
import zlib from 'node:zlib';
import robotsParserModule from 'robots-parser';
import { FetchError, safeFetch, type SafeFetchOptions } from './fetch.ts';

export interface SiteFile {
  url: string;
  /** HTTP status, or null when the fetch itself failed (then `error` says why). */
  status: number | null;
  contentType: string;
  body: string;
  error?: string;
}

export interface SiteFiles {
  robots: SiteFile;
  llms: SiteFile;
  /** Where the sitemap was looked for: a `Sitemap:` line of robots.txt, else /sitemap.xml. */
  sitemap: SiteFile & { source: 'robots' | 'default' };
  /** Every `Sitemap:` line of robots.txt (the first http(s) one is fetched). */
  sitemapsDeclared: string[];
}

export interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getSitemaps(): string[];
}
// The package is CommonJS (module.exports = function); its typings claim an ES default export.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robots;

type Policy = Pick<SafeFetchOptions, 'allowPrivate' | 'addressCheck' | 'signal'>;

async function fetchFile(url: string, policy: Policy, timeoutMs: number, maxBytes: number): Promise<SiteFile> {
  try {
    const res = await safeFetch(url, {
      ...policy,
      timeoutMs,
      maxBytes,
      headers: { accept: 'text/plain,text/markdown,application/xml,text/xml,*/*;q=0.5' },
    });
    const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
    let body = res.body;
    // A gzipped sitemap (sitemap.xml.gz) is a gzip file, not a gzip transfer encoding.
    if (body[0] === 0x1f && body[1] === 0x8b) body = zlib.gunzipSync(body, { maxOutputLength: maxBytes });
    return { url: res.url, status: res.status, contentType, body: body.toString('utf8') };
  } catch (err) {
    return {
      url,
      status: null,
      contentType: '',
      body: '',
      error: err instanceof FetchError ? err.message : String(err),
    };
  }
}

/**
 * True when a file "found" with 200 is really an HTML page (a soft 404 of a single-page app).
 * Judged by the body: crawlers ignore the Content-Type of robots.txt, and servers often get it wrong.
 */
export function looksLikeHtml(file: SiteFile): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(file.body.slice(0, 512));
}

export function robotsOf(files: SiteFiles, pageUrl: string): Robots | null {
  const usable =
    files.robots.status !== null &&
    files.robots.status >= 200 &&
    files.robots.status < 300 &&
    !looksLikeHtml(files.robots);
  return usable ? robotsParser(new URL('/robots.txt', pageUrl).href, files.robots.body) : null;
}

export async function fetchSiteFiles(pageUrl: string, policy: Policy, timeoutMs: number): Promise<SiteFiles> {
  const origin = new URL(pageUrl).origin;
  const [robots, llms] = await Promise.all([
    // Crawlers read at most 500 KiB of robots.txt (RFC 9309); more is not worth holding.
    fetchFile(`${origin}/robots.txt`, policy, timeoutMs, 512 * 1024),
    fetchFile(`${origin}/llms.txt`, policy, timeoutMs, 1024 * 1024),
  ]);
  const partial: SiteFiles = {
    robots,
    llms,
    sitemap: { url: '', status: null, contentType: '', body: '', source: 'default' },
    sitemapsDeclared: [],
  };
  const declared = robotsOf(partial, pageUrl)?.getSitemaps() ?? [];
  const first = declared.find((u) => /^https?:\/\//i.test(u));
  const sitemap = await fetchFile(first ?? `${origin}/sitemap.xml`, policy, timeoutMs, 5 * 1024 * 1024);
  return { robots, llms, sitemap: { ...sitemap, source: first ? 'robots' : 'default' }, sitemapsDeclared: declared };
}
