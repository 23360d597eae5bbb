/**
 * The viewer at a given number of observations, in a real Chromium (Debian's, or CHROMIUM_PATH):
 * first paint and the live feed rendered, against the very same bytes (page, script, style, feed
 * JSON) served by a bare node:http server in the same run; and search, through the page and the
 * viewer's read route, against the worker's own signed /api/search for the same queries.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { workerEndpoint, workerRequest } from '../src/shared/worker-client.js';
import { dataPaths } from '../src/shared/paths.js';
import { openStore } from '../src/store/sqlite-store.js';
import { pick, seedEvent, WORDS } from './search.js';
import { benchHome, cli, median, percentile, round } from './util.js';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export interface ViewerFigures {
  observations: number;
  firstPaintMs: number;
  feedRenderedMs: number;
  baselineFirstPaintMs: number;
  baselineFeedRenderedMs: number;
  pageSearchMedianMs: number;
  pageSearchP95Ms: number;
  viewerSearchP95Ms: number;
  apiSearchP95Ms: number;
  chromium: string;
}

function get(port: number, path: string, cookie: string): Promise<{ status: number; type: string; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks), ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same responses, replayed by a bare node:http server: what the page costs without the worker's work. */
async function replayServer(files: Map<string, { type: string; body: Buffer }>): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/viewer/api/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return;
    }
    const f = files.get(path);
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, server };
}

/** Milliseconds from navigation start to first contentful paint, and to the feed's first row. */
async function loadTimes(page: Page, url: string): Promise<{ paint: number; feed: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  const feed = await page.evaluate<number>(`new Promise((resolve) => {
    const check = () => document.querySelector('.feed-row') ? resolve(performance.now()) : requestAnimationFrame(check);
    check();
  })`);
  const paint = await page.evaluate<number>(`new Promise((resolve) => {
    const read = () => {
      const e = performance.getEntriesByName('first-contentful-paint')[0];
      e ? resolve(e.startTime) : setTimeout(read, 10);
    };
    read();
  })`);
  return { paint, feed };
}

async function measureLoads(page: Page, url: string, loads: number): Promise<{ paint: number; feed: number }> {
  const paints: number[] = [];
  const feeds: number[] = [];
  await loadTimes(page, url); // warm: the browser's own caches, the first compile
  for (let i = 0; i < loads; i++) {
    const t = await loadTimes(page, url);
    paints.push(t.paint);
    feeds.push(t.feed);
  }
  return { paint: round(median(paints), 1), feed: round(median(feeds), 1) };
}

const query = (q: number): string => (q % 2 ? `${pick(WORDS, q)} ${pick(WORDS, q * 7 + 1)}` : pick(WORDS, q * 3));

function seed(dbPath: string, count: number): void {
  const store = openStore(dbPath);
  for (let start = 0; start < count; start += 5000) {
    const events: CaptureEvent[] = [];
    for (let i = start; i < Math.min(count, start + 5000); i++) events.push(seedEvent(i));
    store.ingest(events);
  }
  store.close();
}

async function searchTimes(page: Page, port: number, cookie: string, dataDir: string, queries: number) {
  const inPage: number[] = [];
  const viewerRoute: number[] = [];
  const apiRoute: number[] = [];
  const endpoint = workerEndpoint(dataPaths(dataDir));
  if (!endpoint) throw new Error('no worker endpoint');
  for (let q = 0; q < queries; q++) {
    const words = query(q);
    const params = new URLSearchParams({ q: words, limit: '20' });
    const t0 = performance.now();
    const api = await workerRequest({ port, auth: endpoint.auth, path: `/api/search?${params}`, timeoutMs: 10_000 });
    apiRoute.push(performance.now() - t0);
    if (api.status !== 200) throw new Error(`/api/search answered ${api.status}`);
    const v = await get(port, `/viewer/api/search?${params}`, cookie);
    if (v.status !== 200) throw new Error(`/viewer/api/search answered ${v.status}`);
    viewerRoute.push(v.ms);
    // In the page: from asking to the results on screen.
    const ms = await page.evaluate<number>(`new Promise((resolve) => {
      const t0 = performance.now();
      document.getElementById('search-results')?.replaceChildren();
      location.hash = '#/search?q=' + encodeURIComponent(${JSON.stringify(words)}) + '&n=${q}';
      const check = () => document.getElementById('search-count') ? resolve(performance.now() - t0) : requestAnimationFrame(check);
      check();
    })`);
    inPage.push(ms);
  }
  return { inPage, viewerRoute, apiRoute };
}

export async function benchViewer(count: number, loads = 15, queries = 60): Promise<ViewerFigures> {
  const home = benchHome();
  let browser: Browser | undefined;
  let replay: Server | undefined;
  try {
    seed(join(home.dataDir, 'claude-mem.db'), count);
    const linkRun = cli(home.env, ['viewer', '--no-open', '--json']);
    if (linkRun.status !== 0) throw new Error(`claude-mem viewer failed: ${linkRun.stderr}`);
    const link = (JSON.parse(linkRun.stdout) as { url: string }).url;
    const port = Number(new URL(link).port);
    // The browser's profile, caches and crash reports go to the bench's home, never the real one.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true,
      env: { ...process.env, HOME: home.root, XDG_CONFIG_HOME: join(home.root, '.config'), XDG_CACHE_HOME: join(home.root, '.cache') },
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(link);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const viewer = await measureLoads(page, `http://127.0.0.1:${port}/viewer`, loads);

    const files = new Map<string, { type: string; body: Buffer }>();
    for (const path of ['/viewer', '/viewer/app.js', '/viewer/app.css', '/viewer/api/feed']) {
      const r = await get(port, path === '/viewer/api/feed' ? `${path}?limit=100` : path, cookie);
      files.set(path, { type: r.type, body: r.body });
    }
    const bare = await replayServer(files);
    replay = bare.server;
    const basePage = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const baseline = await measureLoads(basePage, `http://127.0.0.1:${bare.port}/viewer`, loads);

    await page.goto(`http://127.0.0.1:${port}/viewer#/search`);
    await page.waitForSelector('#search-q');
    const s = await searchTimes(page, port, cookie, home.dataDir, queries);
    return {
      observations: count,
      firstPaintMs: viewer.paint,
      feedRenderedMs: viewer.feed,
      baselineFirstPaintMs: baseline.paint,
      baselineFeedRenderedMs: baseline.feed,
      pageSearchMedianMs: round(median(s.inPage), 1),
      pageSearchP95Ms: round(percentile(s.inPage, 95), 1),
      viewerSearchP95Ms: round(percentile(s.viewerRoute, 95), 1),
      apiSearchP95Ms: round(percentile(s.apiRoute, 95), 1),
      chromium: browser.version(),
    };
  } finally {
    await browser?.close();
    replay?.closeAllConnections();
    replay?.close();
    home.cleanup();
  }
}
