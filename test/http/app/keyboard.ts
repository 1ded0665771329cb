// Whether the keyboard alone reaches every control of a page: the controls a person sees, and the
// stops Tab goes through from the top of the page until focus comes round.
import type { Page } from 'playwright-core';

/**
 * Names an element by its place in the document, its tag and its accessible text. Installed in the
 * page by evaluation (the DevTools protocol: the app's CSP does not apply) before each use.
 */
const INSTALL_DESCRIBE = `window.__describe = (el) =>
  [...document.querySelectorAll('*')].indexOf(el) + ' ' + el.tagName.toLowerCase() + ' ' +
  (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 80)`;

/** The visible, enabled controls; a closed <details> hides all it holds but its summary. */
async function controlsOf(page: Page): Promise<string[]> {
  await page.evaluate(INSTALL_DESCRIBE);
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex="0"]')]
      .filter((el) => {
        const closed = el.closest('details:not([open])');
        const hidden = closed !== null && !(el.tagName === 'SUMMARY' && el.parentElement === closed);
        return !hidden && el.checkVisibility() && !(el as HTMLButtonElement).disabled;
      })
      .map((el) => (window as any).__describe(el) as string),
  );
}

/** The elements Tab reaches from the top of the page until focus leaves it or comes back to a stop. */
async function tabStops(page: Page, bound: number): Promise<string[]> {
  await page.evaluate(INSTALL_DESCRIBE);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen: string[] = [];
  while (seen.length < bound) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return !el || el === document.body ? null : ((window as any).__describe(el) as string);
    });
    if (stop === null || seen.includes(stop)) break;
    seen.push(stop);
  }
  return seen;
}

/**
 * The controls of the page Tab does not reach. A page whose controls change during the walk (a read
 * ending late draws a table) is walked again, up to three times: the answer is about one drawing.
 */
export async function missedByTab(page: Page): Promise<{ controls: string[]; reached: string[]; missed: string[] }> {
  for (let attempt = 1; ; attempt++) {
    const before = await controlsOf(page);
    const reached = await tabStops(page, before.length + 50);
    const controls = await controlsOf(page);
    const missed = controls.filter((c) => !reached.includes(c));
    const unchanged = before.length === controls.length && before.every((c, i) => c === controls[i]);
    if (!missed.length || unchanged || attempt === 3) return { controls, reached, missed };
  }
}
