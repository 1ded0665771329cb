// Debian's Chromium for the browser tests, driven by playwright-core: where it is, and one way to
// start it. A test that needs it is skipped where it is missing (README "Tests").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

/** Starts CHROMIUM with the flags below merged into Playwright's own `--disable-features`. */
const LAUNCHER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'chromium.sh');

/**
 * Off in the tests: every window of Chromium's full headless mode preloads the address bar's two
 * suggestion popups, each a WebUI page in a renderer of its own, and Playwright opens a window for
 * every context; a browser test file spent about a fifth of its CPU on them (docs/performance.md).
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Headless Chromium with no sandbox, GPU, background networking or first-run work. */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    ...options,
    executablePath: LAUNCHER,
    env: { ...process.env, ...options.env, CHROMIUM },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
      ...(options.args ?? []),
    ],
  });
}
