// Technical access, part 2, and trust: what the response itself says (rendering, speed, transport,
// canonical URL, language, encoding, size) and whether the site shows who runs it.
import { fail, graded, na, pass, plural, quote, warn, type AuditInput, type Signal } from './types.ts';
import type { Link } from '../page.ts';
import type { SignalKey } from '../rubric.ts';

const SHELL_ROOTS = '#root, #app, #__next, #__nuxt, #___gatsby, #svelte, app-root, [data-reactroot], [ng-app]';

function serverRendered(input: AuditInput): Signal {
  const { page } = input;
  const n = page.bodyWords;
  const empty = page
    .$(SHELL_ROOTS)
    .filter((_, el) => page.$(el).text().trim() === '')
    .toArray();
  const shell = empty.length ? `, an empty ${describe(page.$(empty[0]))}` : '';
  const scripts = `${plural(page.scripts.external, 'script file')}${shell}`;
  if (n >= 150) return pass('server_rendered_text', `${n} words of text in the HTML as served (${scripts}).`);
  if (n >= 50)
    return warn(
      'server_rendered_text',
      0.5,
      `Only ${n} words of text in the HTML as served (${scripts}); check that the main content is not built by ` +
        `JavaScript.`,
    );
  return fail(
    'server_rendered_text',
    `Only ${plural(n, 'word')} of text in the HTML as served (${scripts}): the content is built in the browser ` +
      `by JavaScript, which most AI crawlers do not run.`,
  );
}

/** `<div id="root">` for a selection of one element; the type is what it reads of a cheerio selection. */
function describe(el: { get(i: 0): { tagName?: string } | undefined; attr(name: 'id'): string | undefined }): string {
  const node = el.get(0);
  const id = el.attr('id');
  return `<${node?.tagName ?? 'div'}${id ? ` id="${id}"` : ''}>`;
}

function responseTime(input: AuditInput): Signal {
  const { firstByteMs, totalMs } = input.fetch;
  const seen = `First byte after ${firstByteMs} ms, complete HTML after ${totalMs} ms.`;
  // With the default fast = 600 ms: 1 at 600 ms or less, 0.5 at 1.5 s, 0 from 3 s, linear in between.
  const fast = input.fastMs;
  const half = fast * 2.5;
  const zero = fast * 5;
  const score =
    firstByteMs <= fast
      ? 1
      : firstByteMs <= half
        ? 1 - (0.5 * (firstByteMs - fast)) / (half - fast)
        : Math.max(0, 0.5 - (0.5 * (firstByteMs - half)) / (zero - half));
  return graded('response_time', score, seen);
}

function https(input: AuditInput): Signal {
  const { page, fetch } = input;
  if (page.url.protocol === 'https:') {
    const upgraded = fetch.requestedUrl.startsWith('http:') ? ' (the HTTP URL redirects to it)' : '';
    return pass('https', `Served over HTTPS${upgraded}.`);
  }
  return fail('https', `Served over plain HTTP (${page.url.origin}).`);
}

function mixedContent(input: AuditInput): Signal {
  const { page } = input;
  if (page.url.protocol !== 'https:')
    return na('mixed_content', 'The page is served over HTTP; mixed content only concerns HTTPS pages.');
  const $ = page.$;
  const active = $(
    'script[src^="http:" i], iframe[src^="http:" i], link[rel~="stylesheet"][href^="http:" i], ' +
      'object[data^="http:" i], embed[src^="http:" i]',
  ).length;
  const passive = $('img[src^="http:" i], video[src^="http:" i], audio[src^="http:" i], source[src^="http:" i]').length;
  if (active)
    return fail(
      'mixed_content',
      `${plural(active, 'script, stylesheet or frame')} and ${plural(passive, 'media file')} load over plain HTTP.`,
    );
  if (passive) return warn('mixed_content', 0.5, `${plural(passive, 'image or media file')} load over plain HTTP.`);
  return pass('mixed_content', 'Every resource in the HTML loads over HTTPS.');
}

function redirects(input: AuditInput): Signal {
  const chain = [...input.fetch.redirects, input.page.url.href];
  const n = input.fetch.redirects.length;
  if (n === 0) return pass('redirects', 'No redirect: the URL answers directly.');
  const seen = `${plural(n, 'redirect')}: ${chain.join(' -> ')}.`;
  return n === 1 ? pass('redirects', seen) : n <= 3 ? warn('redirects', 0.5, seen) : fail('redirects', seen);
}

const sameUrl = (a: URL, b: URL) =>
  a.protocol === b.protocol &&
  a.host === b.host &&
  a.search === b.search &&
  a.pathname.replace(/\/+$/, '') === b.pathname.replace(/\/+$/, '');

function canonical(input: AuditInput): Signal {
  const { page } = input;
  const $ = page.$;
  const values = $('link[rel]')
    .filter((_, el) => ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/).includes('canonical'))
    .toArray()
    .map((el) => ($(el).attr('href') ?? '').trim())
    .filter(Boolean);
  const header = [input.fetch.headers.link]
    .flat()
    .join(',')
    .match(/<([^>]+)>\s*;\s*rel="?canonical"?/i)?.[1];
  if (header) values.push(header);
  const distinct = [
    ...new Set(
      values.map((v) => {
        try {
          return new URL(v, page.url).href;
        } catch {
          return v;
        }
      }),
    ),
  ];
  if (distinct.length === 0)
    return fail('canonical', 'No canonical URL (no <link rel="canonical"> and no Link header).');
  if (distinct.length > 1)
    return warn('canonical', 0.4, `${distinct.length} different canonical URLs: ${distinct.join(', ')}.`);
  let target: URL;
  try {
    target = new URL(distinct[0]);
  } catch {
    return warn('canonical', 0.3, `The canonical URL ${quote(distinct[0])} is not a valid URL.`);
  }
  if (sameUrl(target, page.url)) return pass('canonical', `Canonical URL is this page: ${target.href}.`);
  return warn(
    'canonical',
    0.5,
    `Canonical URL points elsewhere (${target.href}): engines will index and cite that URL instead of this one.`,
  );
}

function viewport(input: AuditInput): Signal {
  const v = input.page.meta('viewport');
  if (v === null) return fail('viewport', 'No <meta name="viewport">: the page is not set up for mobile screens.');
  if (!/width\s*=\s*device-width/i.test(v))
    return warn('viewport', 0.5, `Viewport ${quote(v)} does not set width=device-width.`);
  if (/user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*1(\.0)?\b/i.test(v))
    return warn('viewport', 0.7, `Viewport ${quote(v)} blocks zooming.`);
  return pass('viewport', `Viewport ${quote(v)}.`);
}

function lang(input: AuditInput): Signal {
  const l = input.page.lang;
  if (l) {
    return /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(l)
      ? pass('lang', `<html lang="${l}">.`)
      : warn('lang', 0.5, `<html lang="${l}"> is not a valid language tag (e.g. en, en-US).`);
  }
  const header = input.fetch.headers['content-language'];
  if (header) return warn('lang', 0.5, `No lang attribute on <html>; only a Content-Language: ${header} header.`);
  return fail('lang', 'No lang attribute on <html> and no Content-Language header.');
}

function charset(input: AuditInput): Signal {
  const header = String(input.fetch.headers['content-type'] ?? '').match(/charset\s*=\s*"?([\w-]+)/i)?.[1];
  const $ = input.page.$;
  const meta =
    $('meta[charset]').attr('charset') ??
    $('meta[http-equiv="content-type" i]')
      .attr('content')
      ?.match(/charset\s*=\s*([\w-]+)/i)?.[1];
  const declared = header ?? meta;
  const where = header ? 'Content-Type header' : '<meta charset>';
  if (!declared)
    return fail(
      'charset',
      'No character encoding declared (neither in the Content-Type header nor with <meta charset>).',
    );
  return /^utf-?8$/i.test(declared.trim())
    ? pass('charset', `UTF-8 declared in the ${where}.`)
    : warn('charset', 0.6, `${declared} declared in the ${where}; UTF-8 is the safe choice.`);
}

function pageWeight(input: AuditInput): Signal {
  const kb = input.fetch.bytes / 1024;
  const seen = `The HTML is ${kb < 1024 ? `${kb.toFixed(1)} KB` : `${(kb / 1024).toFixed(2)} MB`}.`;
  return kb <= 500
    ? pass('page_weight', seen)
    : kb <= 2048
      ? warn('page_weight', 0.5, seen)
      : fail('page_weight', seen);
}

/** A link found by its text or target, for the trust links. */
function trustLink(key: SignalKey, links: Link[], pattern: RegExp, what: string, extra?: (l: Link) => boolean): Signal {
  const hit = links.find((l) => pattern.test(l.text) || pattern.test(l.url?.pathname ?? '') || (extra?.(l) ?? false));
  return hit
    ? pass(key, `Links to ${what}: ${quote(hit.text || hit.raw, 40)} -> ${hit.raw}.`)
    : fail(key, `No link to ${what} found among the page's ${plural(links.length, 'link')}.`);
}

export function technicalSignals(input: AuditInput): Signal[] {
  const links = input.page.links;
  return [
    serverRendered(input),
    responseTime(input),
    https(input),
    mixedContent(input),
    redirects(input),
    canonical(input),
    viewport(input),
    lang(input),
    charset(input),
    pageWeight(input),
    trustLink('contact_link', links, /contact|get in touch|kontakt|contacto|nous contacter/i, 'a contact page', (l) =>
      /^(mailto|tel):/i.test(l.raw),
    ),
    trustLink('privacy_link', links, /privacy|datenschutz|confidentialit|privacidad|gdpr/i, 'a privacy policy'),
    trustLink(
      'terms_link',
      links,
      /terms|conditions|\btos\b|legal|imprint|impressum|mentions-l|aviso-legal|\bagb\b/i,
      'terms or a legal notice',
    ),
  ];
}
