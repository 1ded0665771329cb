// When the overview counts as drawn, for bench/app.ts: a script run in the page before its own
// (Playwright's addInitScript) that watches the DOM and stores in window.__overviewDrawnAt the time
// (ms since navigation start) at which, on /app/brands/{id}, nothing says it is still loading
// (aria-busy, a "Loading" status), every card shows its value and every chart has its canvas.
// Plain JavaScript in a string: a function would be serialised after tsx compiled it, with helper
// calls (__name) that do not exist in the page.
export const OVERVIEW_DRAWN = `(() => {
  if (!/^\\/app\\/brands\\/[^/]+\\/?$/.test(location.pathname)) return;
  const drawn = () => {
    if (!document.querySelector('.page-head h1')) return false;
    if (document.querySelector('[aria-busy="true"]')) return false;
    for (const s of document.querySelectorAll('[role="status"]')) if (/loading/i.test(s.textContent || '')) return false;
    const cards = document.querySelectorAll('.card');
    if (!cards.length) return false;
    for (const c of cards) {
      const v = c.querySelector('.value');
      if (!v || !v.textContent.trim()) return false;
    }
    for (const chart of document.querySelectorAll('.chart, [data-chart]')) {
      const canvas = chart.querySelector('canvas');
      if (!canvas || canvas.width === 0) return false;
    }
    return true;
  };
  const observer = new MutationObserver(() => {
    if (window.__overviewDrawnAt === undefined && drawn()) {
      window.__overviewDrawnAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();`;
