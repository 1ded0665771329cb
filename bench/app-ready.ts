// When the overview counts as drawn, for bench/app.ts: a script run in the page before its own
// (Playwright's addInitScript) that stores in window.__overviewDrawnAt the time (ms since navigation
// start) at which, on /app/brands/{id}, the page's main element first carries data-ready="true": the
// overview sets it once every part shows its figures (or its failure) for the page's filters and the
// trend's chart is drawn (src/web/pages/overview.tsx). Plain JavaScript in a string: a function
// would be serialised after tsx compiled it, with helper calls (__name) that do not exist in the page.
export const OVERVIEW_DRAWN = `(() => {
  if (!/^\\/app\\/brands\\/[^/]+\\/?$/.test(location.pathname)) return;
  const observer = new MutationObserver(() => {
    if (window.__overviewDrawnAt === undefined && document.querySelector('main[data-ready="true"]')) {
      window.__overviewDrawnAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})();`;
