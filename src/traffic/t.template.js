// The tracking script served at /t.js. script.ts drops the lines that start with //, trims the
// others and joins them, so every line must end a statement on its own (`;`, `{`, `}` or `,`).
// __HOSTS__ and __UTM__ become the host and utm_source lists of data/ai-platforms.json.
// No cookies, no storage, no identifiers: one beacon {site, url, referrer} per page view, and
// only when the referrer or utm_source could be an AI platform (the server decides for real).
// It runs on customers' pages in whatever browser visits them, so its syntax stays ES5: no arrow
// functions, optional chaining, template literals or catch without a binding, whatever the linter
// suggests.
// biome-ignore-all lint/complexity/useArrowFunction: ES5 on purpose (see above)
// biome-ignore-all lint/complexity/useOptionalChain: ES5 on purpose (see above)
// biome-ignore-all lint/style/useTemplate: ES5 on purpose (see above)
(function (w, d, l, n) {
  var s = d.currentScript || d.querySelector('script[data-site]'),
    i = s && s.getAttribute('data-site'),
    H = __HOSTS__,
    U = __UTM__,
    r = d.referrer,
    h = '',
    u = '',
    p,
    b;
  // Embedded twice on one page: still one beacon.
  if (!i || w.__answerscope) return;
  w.__answerscope = 1;
  // True when h is a listed host or a sub-domain of one (whole labels, never a substring).
  function m(h) {
    for (h = h.toLowerCase(); h; h = h.slice(h.indexOf('.') + 1 || h.length)) {
      if (H.indexOf(h) >= 0) return 1;
    }
    return 0;
  }
  try {
    h = new URL(r).hostname;
    // biome-ignore lint/correctness/noUnusedVariables: ES5 requires the catch binding
  } catch (e) {}
  try {
    u = (new URLSearchParams(l.search).get('utm_source') || '').toLowerCase();
    // biome-ignore lint/correctness/noUnusedVariables: ES5 requires the catch binding
  } catch (e) {}
  if (!m(h) && U.indexOf(u) < 0 && !m(u)) return;
  p = new URL(s.src).origin + '/api/collect';
  b = JSON.stringify({ site: i, url: l.href, referrer: r });
  // sendBeacon posts text/plain, which needs no CORS preflight; fetch keepalive is the fallback.
  if (!(n.sendBeacon && n.sendBeacon(p, b)) && w.fetch) {
    fetch(p, { method: 'POST', body: b, keepalive: true, credentials: 'omit' });
  }
})(window, document, location, navigator);
