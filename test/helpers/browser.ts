/**
 * A real headless Chromium for tests: Debian's package (or CHROMIUM_PATH) driven by playwright-core
 * through executablePath, so no browser is ever downloaded. The browser's profile, HOME, caches and
 * temp files all live in the test's temp dir, never the real home.
 *
 *   const browser = useBrowser();        // one Chromium for the test file, a fresh context per test
 *   await browser.page().goto(url);
 *   await screenshot(browser.page(), join(dir, 'feed.png'));
 *
 * Set CLAUDE_MEM_SKIP_BROWSER=1 to skip these tests on a machine without Chromium (local use only:
 * .ci/run clears it, and without it a missing Chromium fails the tests).
 */
import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { tempDir } from './temp.js';

/** `describe` that CLAUDE_MEM_SKIP_BROWSER=1 skips (never set in CI). */
export const describeBrowser = describe.skipIf(process.env.CLAUDE_MEM_SKIP_BROWSER === '1');

/** What this sandbox needs, and nothing reaching out to the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium; a clear error when it is not there. */
export function chromiumExecutable(): string {
  const path = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`Chromium not found at ${path}${process.env.CHROMIUM_PATH ? ' (CHROMIUM_PATH)' : ''}. `
      + 'The browser tests drive a real Chromium: run .ci/run (it installs one), or '
      + '`apt-get install chromium fonts-liberation`, or set CHROMIUM_PATH to a Chromium binary. '
      + 'To skip these tests locally only, set CLAUDE_MEM_SKIP_BROWSER=1.');
  }
  return path;
}

export interface TestBrowser {
  browser: Browser;
  /** e.g. "156.0.8078.114" */
  version: string;
  close(): Promise<void>;
}

/**
 * Launches Chromium with its profile in a fresh directory under `dir`. The first (persistent)
 * context only holds that profile; tests get contexts of their own from `browser.newContext()`.
 */
export async function launchChromium(dir = tempDir('chromium')): Promise<TestBrowser> {
  const home = join(dir, 'home');
  const profile = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: chromiumExecutable(),
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      TMPDIR: dir,
    },
  });
  const browser = profile.browser();
  if (!browser) throw new Error('Chromium started without a browser object (playwright-core and Chromium versions apart?)');
  return { browser, version: browser.version(), close: () => profile.close() };
}

/** One Chromium for the calling test file, a fresh context and page for each of its tests. */
export function useBrowser(contextOptions: BrowserContextOptions = {}): { browser(): Browser; context(): BrowserContext; page(): Page } {
  let launched: TestBrowser | undefined;
  let current: { context: BrowserContext; page: Page } | undefined;
  beforeAll(async () => {
    launched = await launchChromium();
  }, 90_000);
  beforeEach(async () => {
    const context = await launched!.browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
    current = { context, page: await context.newPage() };
  });
  afterEach(async () => {
    await current?.context.close();
    current = undefined;
  });
  afterAll(async () => {
    await launched?.close();
  }, 30_000);
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what}: useBrowser() provides it inside tests only`);
    return value;
  };
  return {
    browser: () => need(launched, 'browser').browser,
    context: () => need(current, 'context').context,
    page: () => need(current, 'page').page,
  };
}

export interface Png {
  path: string;
  bytes: number;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's header; throws if `data` is not a PNG. */
export function pngSize(data: Buffer): { width: number; height: number } {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG image');
  }
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** Writes a PNG of the page (the whole page unless `fullPage: false`) to `path`, and reads it back. */
export async function screenshot(page: Page, path: string, opts: { fullPage?: boolean } = {}): Promise<Png> {
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, type: 'png', fullPage: opts.fullPage ?? true });
  const data = readFileSync(path);
  return { path, bytes: data.length, ...pngSize(data) };
}
