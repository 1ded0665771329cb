// The README's screenshots, taken from the demo as a newcomer sees it: starts `npm run demo`'s
// program (src/demo.ts) on a fresh DATA_DIR and a free port, signs in with the email and password
// it prints, and captures in Debian's Chromium:
//   docs/images/overview.png  the first brand's overview (/app/brands/{id})
//   docs/images/overview-phone.png  the same overview on a phone (390 px wide: the menu folded)
//   docs/images/settings.png  Settings > API keys with a new key shown once
//   node --import tsx scripts/screenshots.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs/images');
const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  console.error('scripts/screenshots.ts needs Chromium at /usr/bin/chromium (apt-get install chromium)');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-screenshots-'));
const demo = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/demo.ts')], {
  cwd: ROOT,
  env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SCHEDULER: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});

/** What the demo prints once it is ready: the app's address and the demo person's credentials. */
const printed = await new Promise<{ base: string; email: string; password: string }>((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`the demo printed no address within 5 minutes:\n${out}`)), 300_000);
  demo.stdout.on('data', (chunk) => {
    out += chunk;
    const base = /Open the app: (\S+)\/app/.exec(out)?.[1];
    const email = /Email:\s+(\S+)/.exec(out)?.[1];
    const password = /Password:\s+(\S+)/.exec(out)?.[1];
    if (base && email && password) {
      clearTimeout(timer);
      resolve({ base, email, password });
    }
  });
  demo.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it was ready:\n${out}`)));
});

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1360, height: 1000 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${printed.base}/app`);
  await page.getByLabel('Email').fill(printed.email);
  await page.getByLabel('Password').fill(printed.password);
  await Promise.all([
    page.waitForURL((u) => /^\/app\/brands\/[^/]+$/.test(u.pathname)),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  // The outdoor brand: it has the most prompts, platforms and competitors of the demo.
  await Promise.all([
    page.waitForURL((u) => /^\/app\/brands\/[^/]+$/.test(u.pathname)),
    page.getByLabel('Brand').selectOption({ label: 'Trailpeak' }),
  ]);
  // The overview once every part shows its figures and the trend is drawn (main[data-ready]); the
  // getting-started list dismissed, as a person past their first day has, so the figures lead.
  const drawn = () => page.locator('main[data-ready="true"]').waitFor({ timeout: 120_000 });
  await drawn();
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.count()) {
    await dismiss.click();
    await dismiss.waitFor({ state: 'detached' });
  }
  await page.waitForTimeout(300); // let the charts finish their first paint
  await page.screenshot({ path: path.join(OUT, 'overview.png') });

  // The same overview on a phone: a page of its own at 390 x 844 CSS pixels, drawn at 2x as phones do.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    storageState: await context.storageState(),
  });
  const phonePage = await phone.newPage();
  await phonePage.goto(page.url());
  await phonePage.locator('main[data-ready="true"]').waitFor({ timeout: 120_000 });
  await phonePage.waitForTimeout(300);
  await phonePage.screenshot({ path: path.join(OUT, 'overview-phone.png') });
  await phone.close();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${printed.base}/app/settings/keys`);
  await page.getByRole('button', { name: 'New key' }).click();
  await page.getByLabel('Name').fill('Looker Studio');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('New API key').waitFor();
  await page.getByRole('cell', { name: 'Looker Studio', exact: true }).waitFor(); // the list, reloaded with it
  await page.screenshot({ path: path.join(OUT, 'settings.png') });
  console.log('wrote docs/images/overview.png, overview-phone.png and settings.png');
} finally {
  await browser.close();
  // The demo stops on SIGTERM (closing its stores); then its data goes.
  await new Promise<void>((resolve) => {
    demo.once('exit', () => resolve());
    demo.kill('SIGTERM');
  });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
