// The browser the tests drive is a real Chromium: it loads a page served on 127.0.0.1 under a
// strict Content-Security-Policy, runs its script, shows rows pushed live over server-sent
// events, takes clicks, renders text with real fonts and writes real screenshots.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, screenshot, useBrowser } from '../helpers/browser.js';
import { startLocalServer, type LocalServer } from '../helpers/local-server.js';
import { tempDir } from '../helpers/temp.js';

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>infra</title><script src="/app.js" defer></script></head>
<body>
  <h1 id="status">waiting</h1>
  <button id="go">Count</button> <span id="count">0</span>
  <ul id="feed"></ul>
  <script>document.body.dataset.inline = 'ran';</script>
</body></html>`;

// Text only (textContent): what arrives over the wire is never turned into markup.
const APP = `
const count = document.getElementById('count');
document.getElementById('go').addEventListener('click', () => { count.textContent = String(Number(count.textContent) + 1); });
const events = new EventSource('/events');
events.addEventListener('open', () => { document.getElementById('status').textContent = 'live'; });
events.addEventListener('message', (e) => {
  const li = document.createElement('li');
  li.textContent = JSON.parse(e.data).text;
  document.getElementById('feed').append(li);
});`;

describeBrowser('Chromium test browser', () => {
  const browser = useBrowser();
  let server: LocalServer;
  let url: string;
  const streams = new Set<ServerResponse>();
  const cookiesSeen: string[] = [];
  const push = (text: string) => {
    for (const res of streams) res.write(`data: ${JSON.stringify({ text })}\n\n`);
  };

  beforeAll(async () => {
    server = await startLocalServer((req, res) => {
      cookiesSeen.push(req.headers.cookie ?? '');
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        res.write(': open\n\n');
        streams.add(res);
        res.on('close', () => streams.delete(res));
        return;
      }
      const [type, body] = req.url === '/app.js' ? ['text/javascript', APP] : ['text/html; charset=utf-8', PAGE];
      res.writeHead(200, {
        'content-type': type,
        'content-security-policy': "default-src 'none'; script-src 'self'; connect-src 'self'",
        'set-cookie': 'visited=1; HttpOnly; SameSite=Strict; Path=/',
      });
      res.end(body);
    });
    url = `http://127.0.0.1:${server.port}/`;
  });
  afterAll(() => server?.close());

  it('runs the page script, not the inline one the CSP forbids, and shows pushed rows live', async () => {
    const page = browser.page();
    await page.goto(url);
    await expect.poll(() => page.locator('#status').textContent()).toBe('live');
    expect(await page.locator('body').getAttribute('data-inline')).toBeNull();
    push('first row <b>not bold</b>');
    push('second row');
    await expect.poll(() => page.locator('#feed li').allTextContents()).toEqual(['first row <b>not bold</b>', 'second row']);
    expect(await page.locator('#feed b').count()).toBe(0);
  });

  it('clicks, renders text with a real font, and writes a PNG of what it shows', async () => {
    const page = browser.page();
    const dir = tempDir('shots');
    await page.goto(url);
    const before = await screenshot(page, join(dir, 'before.png'));
    await page.click('#go');
    await page.click('#go');
    expect(await page.locator('#count').textContent()).toBe('2');
    const after = await screenshot(page, join(dir, 'nested', 'after.png'));
    expect(after).toMatchObject({ width: 1280, height: 800 });
    expect(after.bytes).toBeGreaterThan(2000);
    expect(readFileSync(after.path).equals(readFileSync(before.path))).toBe(false);
    // Without fonts-liberation this family falls back to monospace and both widths agree.
    const widths = await page.evaluate<{ liberation: number; monospace: number }>(`(() => {
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = "20px 'Liberation Sans', monospace";
      const liberation = ctx.measureText('Memory you can see').width;
      ctx.font = '20px monospace';
      return { liberation, monospace: ctx.measureText('Memory you can see').width };
    })()`);
    expect(widths.liberation).not.toBe(widths.monospace);
  });

  it('gives each test a fresh context (no cookie from the last one) and keeps the profile in the test dir', async () => {
    const page = browser.page();
    cookiesSeen.length = 0;
    await page.goto(url);
    expect(cookiesSeen[0]).toBe('');
    await page.goto('chrome://version');
    const profile = await page.locator('#profile_path').textContent();
    const root = `${process.env.CLAUDE_MEM_TEST_ROOT}/`;
    expect(profile?.slice(0, root.length)).toBe(root);
  });
});
