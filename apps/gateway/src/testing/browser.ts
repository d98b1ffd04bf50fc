// A real browser for the web app's tests: Debian's Chromium driven by playwright-core (no browser
// download), an accessibility check with axe-core, and the screenshots docs/screenshots/ keeps.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
/**
 * Where the screenshots go: docs/screenshots/ with UPDATE_SCREENSHOTS=1, otherwise a temporary
 * directory, so that a test run leaves the checkout as it was (each run's pictures differ by a pixel).
 */
export const SCREENSHOTS = process.env['UPDATE_SCREENSHOTS'] === '1' ? join(ROOT, 'docs/screenshots') : join(tmpdir(), 'outreach-screenshots');

/** Where Chromium is: CHROMIUM_PATH, else Debian's. Undefined when there is none (the browser tests are skipped then, outside CI). */
export function chromiumPath(): string | undefined {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p));
}

/** Why the browser tests cannot run here, or null. In CI a missing browser or app build is a failure, not a skip. */
export function browserUnavailable(): string | null {
  // CI runs them in its PGlite pass only (BROWSER_TESTS=0 in the PostgreSQL pass, .ci/run): every
  // operation they drive has its own PostgreSQL integration tests, and CI stays under 30 minutes.
  if (process.env['BROWSER_TESTS'] === '0') return 'BROWSER_TESTS=0';
  const reason = !chromiumPath()
    ? 'no Chromium (apt-get install chromium, or set CHROMIUM_PATH)'
    : !existsSync(join(ROOT, 'apps/web/dist/index.html'))
      ? 'the web app is not built (npm run build:web)'
      : null;
  if (reason && process.env['CI']) throw new Error(`browser tests cannot run: ${reason}`);
  return reason;
}

/** Chromium headless, as root, without the background traffic this closed network refuses. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The page sizes every screen must work at. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * A new page (its own cookies) at a viewport, failing the test on any uncaught page error;
 * `timezoneId`: the browser's time zone (the machine's when absent).
 */
export async function openPage(browser: Browser, viewport: keyof typeof VIEWPORTS = 'desktop', options: { timezoneId?: string } = {}) {
  // Reduced motion: what axe sees is the screen at rest, not a notification halfway through fading in.
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], reducedMotion: 'reduce', timezoneId: options.timezoneId });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors };
}

const axeSource = () => readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now (WCAG 2.x A and AA). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the app's Content-Security-Policy (no inline scripts) stays on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const run = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return run.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => `${String(n.target)}: ${String(n.html).slice(0, 160)} (${String(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)})`) }));
  });
  return (result as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Saves the page as <name>.png in SCREENSHOTS (docs/screenshots/ with UPDATE_SCREENSHOTS=1: the README links them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  // A layout still moving (the navigation sliding away once the viewport became a phone's) is not
  // what a person sees: wait for running transitions to end (endless ones, a spinner, aside). A
  // screenshot asserts nothing, so past 5 s it is taken as it is.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
    .catch(() => undefined);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/**
 * Starts recording every value the progress bar named `label` takes (aria-valuenow), as it changes,
 * and answers a function reading them: a bar that jumps from 0 to 100 shows one value, not a progress.
 */
export async function watchProgress(page: Page, label: string): Promise<() => Promise<number[]>> {
  await page.evaluate((name) => {
    const seen: number[] = [];
    (window as any).__progressSeen = seen;
    const record = () => {
      const bar = document.querySelector(`[role="progressbar"][aria-label="${name}"]`);
      const value = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
      if (!Number.isNaN(value) && seen.at(-1) !== value) seen.push(value);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  }, label);
  return () => page.evaluate(() => (window as any).__progressSeen as number[]);
}
