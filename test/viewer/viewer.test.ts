/**
 * The viewer in a real Chromium, against a real worker fed by real hook runs (Claude Code's own
 * payloads): signing in through `claude-mem viewer --no-open`'s one-time link, the live feed,
 * search, a session's timeline with its subagent, forget and pin (checked in the database and in
 * the next SessionStart context), and the page's defences (no cookie, cross-site writes, a forged
 * Host, tool output holding markup).
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, screenshot, useBrowser } from '../helpers/browser.js';
import { startLocalServer } from '../helpers/local-server.js';
import { DIST_BIN, tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, runHook, startWorker, waitFor, workerInfo } from '../hook-runtime/helpers.js';

const h = tempHome();
const env = hookEnv(h.env);
const cwd = join(tempDir('work'), 'shop-api');
/** No git repository: the project is the directory itself. */
const project = cwd;
const SESSION = 'sess-viewer-1';
const XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
/** Screenshots go here too when set (docs/ for the README). */
const SHOTS = process.env.CLAUDE_MEM_SCREENSHOTS_DIR;
const shotDir = tempDir('shots');
let port = 0;

const browser = useBrowser();

async function hook(event: string, file: string, patch: Record<string, unknown>): Promise<void> {
  const r = await runHook(env, 'claude-code', event, JSON.stringify(claudePayload(file, { cwd, session_id: SESSION, ...patch })), cwd);
  expect(r.code).toBe(0);
}

const tool = (id: string, command: string, stdout: string, extra: Record<string, unknown> = {}) =>
  hook('PostToolUse', '005-PostToolUse.json', { tool_use_id: id, tool_input: { command }, tool_response: { stdout, stderr: '' }, ...extra });

function viewerLink(): string {
  const r = spawnSync(process.execPath, [DIST_BIN, 'viewer', '--no-open', '--json'], { env, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  const url = (JSON.parse(r.stdout) as { url: string }).url;
  expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/viewer/open\\?code=[A-Za-z0-9_-]{32}$`));
  return url;
}

async function signIn(page: Page): Promise<void> {
  const res = await page.goto(viewerLink());
  expect(res?.status()).toBe(200);
  // The spent code does not stay in the address bar.
  expect(page.url()).toBe(`http://127.0.0.1:${port}/viewer`);
}

async function shot(page: Page, name: string): Promise<void> {
  const png = await screenshot(page, join(shotDir, `viewer-${name}.png`), { fullPage: false });
  expect(png.width).toBe(1280);
  if (SHOTS) await screenshot(page, join(SHOTS, `viewer-${name}.png`), { fullPage: false });
}

const obsId = (title: string): number =>
  countRows(h.dataDir, "SELECT coalesce(max(id), -1) AS n FROM observations WHERE narrative LIKE ? ", `%${title}%`);

/** The text SessionStart gives a new session in the project, through the real hook. */
async function nextSessionContext(): Promise<string> {
  const r = await runHook(env, 'claude-code', 'SessionStart', JSON.stringify(claudePayload('001-SessionStart.json', { cwd, session_id: `probe-next-${Date.now()}` })), cwd);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describeBrowser('viewer in Chromium', () => {
  beforeAll(async () => {
    ensureBuilt();
    spawnSync('mkdir', ['-p', cwd]);
    startWorker(env);
    port = workerInfo(h.dataDir)!.port;
    await hook('SessionStart', '001-SessionStart.json', {});
    await hook('UserPromptSubmit', '003-UserPromptSubmit.json', { prompt: 'fix the invoice rounding bug in billing', prompt_id: 'p-1' });
    await tool('toolu_v1', 'npm test -- invoice', `invoice rounding fixed ${XSS}`, { prompt_id: 'p-1' });
    await tool('toolu_v2', 'git diff --stat', 'src/billing/invoice.ts | 4 ++--', { prompt_id: 'p-1' });
    await tool('toolu_sub', 'grep -rn webhookRetry src', 'src/hooks/retry.ts: webhookRetry(3)', { prompt_id: 'p-1', agent_id: 'agent-explore-1' });
    await hook('Stop', '008-Stop.json', { last_assistant_message: 'Rounding now uses banker rounding; tests pass.', prompt_id: 'p-1' });
    await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM observations') >= 3, 15_000);
  }, 120_000);

  afterAll(() => cleanupWorker(env, h.dataDir));

  it('signs in through the one-time link and shows the live feed, new captures appearing without reload', async () => {
    const page = browser.page();
    const res = await page.goto(viewerLink());
    const first = res!.request().redirectedFrom();
    expect(first?.url()).toMatch(/\/viewer\/open\?code=/);
    const headers = await (await first!.response())!.allHeaders();
    expect(headers['set-cookie']).toMatch(/HttpOnly/);
    expect(headers['set-cookie']).toMatch(/SameSite=Strict/);
    expect(page.url()).toBe(`http://127.0.0.1:${port}/viewer`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.feed-row').first().waitFor();
    expect(await page.locator('.feed').textContent()).toContain('npm test -- invoice');
    await page.locator('#live[data-state="live"]').waitFor();

    await tool('toolu_v3', 'npm run lint', 'live-marker-4471 clean');
    await page.locator('.feed-row', { hasText: 'live-marker-4471' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('.feed-row').first().textContent()).toContain('live-marker-4471');
    await shot(page, 'feed');
  });

  it('shows captured markup as text and never runs it', async () => {
    const page = browser.page();
    await signIn(page);
    const row = page.locator('.feed-row', { hasText: 'invoice rounding fixed' });
    await row.waitFor();
    expect(await row.textContent()).toContain('<script>window.__xss = 1</script>');
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('main script, main img').count()).toBe(0);
  });

  it('lists sessions by project and host with the subagent nested, and opens a timeline', async () => {
    const page = browser.page();
    await signIn(page);
    await page.keyboard.press('2');
    await page.locator('.project h2', { hasText: project }).waitFor();
    const parent = page.locator('.session-line', { hasText: 'fix the invoice rounding bug' }).first();
    expect(await parent.locator('.children .session-line').count()).toBe(1);
    expect(await parent.locator('.host').first().textContent()).toContain('Claude Code');
    await shot(page, 'sessions');
    await parent.locator('a.row').first().click();
    await page.locator('.timeline').first().waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('fix the invoice rounding bug in billing'); // the prompt
    expect(text).toContain('npm test -- invoice'); // a tool call with its result
    expect(text).toContain('Rounding now uses banker rounding'); // the outcome
    expect(await page.locator('.subagent').textContent()).toContain('webhookRetry');
    // Keyboard: j moves from row to row (the prompt first, then the first tool call).
    await page.locator('body').press('j');
    expect(await page.evaluate<string | null>("document.activeElement.getAttribute('data-kind')")).toBe('prompt');
    await page.locator('body').press('j');
    expect(await page.evaluate<string | null>("document.activeElement.getAttribute('data-kind')")).toBe('observation');
    await shot(page, 'session');
  });

  it('searches with the CLI filters, grouped by session', async () => {
    const page = browser.page();
    await signIn(page);
    await page.keyboard.press('/');
    await page.locator('#search-q').fill('invoice');
    await page.locator('#search-host').selectOption('claude-code');
    await page.locator('#search-q').press('Enter');
    await page.locator('.result').first().waitFor();
    expect(await page.locator('.result h2').first().textContent()).toContain(SESSION);
    expect(await page.locator('.result mark').first().textContent()).toMatch(/invoice/i);
    await shot(page, 'search');
    await page.locator('#search-host').selectOption('codex');
    await page.locator('#search-q').press('Enter');
    await page.locator('#search-count', { hasText: '0 session(s)' }).waitFor();
  });

  it('shows exactly what the next SessionStart gives the project', async () => {
    const page = browser.page();
    await signIn(page);
    await page.goto(`http://127.0.0.1:${port}/viewer#/context?project=${encodeURIComponent(project)}`);
    await page.locator('#context-text').waitFor();
    const shown = await page.locator('#context-text').textContent();
    expect(shown).toContain('invoice');
    expect(await nextSessionContext()).toBe(shown);
    await shot(page, 'context');
  });

  it('shows capture health per host with an explanation', async () => {
    const page = browser.page();
    await signIn(page);
    await page.keyboard.press('5');
    const row = page.locator('table.health tr', { hasText: 'Claude Code' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Claude Code is being captured: last prompt .* ago/);
    expect(await page.locator('.card:has(h2:text-is("Spool"))').textContent()).toContain('every capture reached the database');
    await shot(page, 'health');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.keyboard.press('2');
    await page.locator('.session-line').first().waitFor();
    const bg = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    expect(bg).toBe('rgb(22, 23, 27)');
    await shot(page, 'sessions-dark');
  });

  it('forgets an observation after confirming, and it is gone from the database', async () => {
    const page = browser.page();
    await signIn(page);
    const id = obsId('git diff --stat');
    expect(id).toBeGreaterThan(0);
    const sid = countRows(h.dataDir, 'SELECT session_id AS n FROM observations WHERE id = ?', id);
    await page.goto(`http://127.0.0.1:${port}/viewer#/session/${sid}`);
    const row = page.locator(`article[data-kind="observation"][data-id="${id}"]`);
    await row.locator('[data-action="forget"]').click();
    await page.locator('dialog[open]').waitFor();
    expect(await page.locator('#confirm-text').textContent()).toMatch(/This removes 1 observation\(s\)/);
    await page.locator('#confirm-cancel').click();
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM observations WHERE id = ?', id)).toBe(1);
    await row.locator('[data-action="forget"]').click();
    await page.locator('#confirm-ok').click();
    await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM observations WHERE id = ?', id) === 0, 10_000);
    expect(countRows(h.dataDir, "SELECT count(*) AS n FROM events WHERE payload LIKE '%git diff --stat%'")).toBe(0);
    await row.waitFor({ state: 'detached' });
  });

  it('pins an observation, and the next SessionStart context leads with it', async () => {
    const page = browser.page();
    await signIn(page);
    const id = obsId('npm run lint');
    const sid = countRows(h.dataDir, 'SELECT session_id AS n FROM observations WHERE id = ?', id);
    await page.goto(`http://127.0.0.1:${port}/viewer#/session/${sid}`);
    const pin = page.locator(`article[data-id="${id}"] [data-action="pin"]`);
    await pin.click();
    await page.locator(`article[data-id="${id}"] [data-action="pin"][aria-pressed="true"]`).waitFor();
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM pins WHERE observation_id = ?', id)).toBe(1);
    const ctx = await nextSessionContext();
    expect(ctx).toMatch(new RegExp(`## Pinned[\\s\\S]*#${id} `));
  });

  it('refuses a page without the cookie, a spent or forged link, and a forged Host', async () => {
    const page = browser.page();
    const res = await page.goto(`http://127.0.0.1:${port}/viewer`);
    expect(res?.status()).toBe(401);
    expect(await page.locator('h1').textContent()).toBe('Not signed in');
    // The command it names is the one that runs here (a checkout: node and its dist/bin.js).
    expect(await page.locator('main').textContent()).toMatch(/dist\/bin\.js'? viewer to open the viewer/);
    const api = await page.goto(`http://127.0.0.1:${port}/viewer/api/feed`);
    expect(api?.status()).toBe(401);
    expect(await api?.text()).not.toContain('invoice');
    expect((await page.goto(`http://127.0.0.1:${port}/viewer/open?code=forged-code-forged-code-forged-00`))?.status()).toBe(403);
    const link = viewerLink();
    expect((await page.goto(link))?.status()).toBe(200);
    const other = await browser.browser().newContext();
    try {
      expect((await (await other.newPage()).goto(link))?.status()).toBe(403); // spent
    } finally {
      await other.close();
    }
    // Signed in, but the Host names another site (DNS rebinding): refused before anything else.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookie).toContain(`claude_mem_viewer_${port}=`);
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/viewer/api/feed', headers: { host, cookie } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
    expect(await status(`attacker.example:${port}`)).toBe(403);
  });

  it('refuses cross-site writes: another origin on this machine cannot forget, nor can a request without the CSRF token', async () => {
    const page = browser.page();
    await signIn(page);
    const id = obsId('npm test -- invoice');
    expect(id).toBeGreaterThan(0);
    const evil = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>other site</title><p>other</p>');
    });
    try {
      const attacker = await page.context().newPage();
      await attacker.goto(`http://127.0.0.1:${evil.port}/`);
      const outcome = await attacker.evaluate(async ({ port: p, id: oid }) => {
        const tries: string[] = [];
        for (const type of ['text/plain', 'application/json']) {
          try {
            const r = await fetch(`http://127.0.0.1:${p}/viewer/api/forget`, {
              method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': type }, body: JSON.stringify({ observationIds: [oid] }),
            });
            tries.push(`${type}:${r.type}`);
          } catch (e) {
            tries.push(`${type}:error ${(e as Error).message}`);
          }
        }
        return tries;
      }, { port, id });
      expect(outcome.length).toBe(2);
      // Same page, correct cookie, but no CSRF token: refused too.
      const noToken = await page.request.post(`http://127.0.0.1:${port}/viewer/api/forget`, {
        data: { observationIds: [id] }, headers: { origin: `http://127.0.0.1:${port}` },
      });
      expect(noToken.status()).toBe(403);
      const wrongOrigin = await page.request.post(`http://127.0.0.1:${port}/viewer/api/pin`, {
        data: { observationId: id, pinned: true }, headers: { origin: `http://127.0.0.1:${evil.port}` },
      });
      expect(wrongOrigin.status()).toBe(403);
      expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM observations WHERE id = ?', id)).toBe(1);
      expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM pins WHERE observation_id = ?', id)).toBe(0);
    } finally {
      await evil.close();
    }
  });

  it('forgets a search result set after confirming: exactly the rows shown', async () => {
    const page = browser.page();
    await signIn(page);
    const id = obsId('npm run lint');
    expect(id).toBeGreaterThan(0);
    await page.goto(`http://127.0.0.1:${port}/viewer#/search?q=lint`);
    await page.locator('.result').first().waitFor();
    await page.locator('button', { hasText: 'Forget these results' }).click();
    await page.locator('dialog[open]').waitFor();
    expect(await page.locator('#confirm-text').textContent()).toMatch(/1 observation\(s\).*1 pin\(s\)/);
    await page.locator('#confirm-ok').click();
    await page.locator('#search-count', { hasText: '0 session(s)' }).waitFor();
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM observations WHERE id = ?', id)).toBe(0);
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM pins')).toBe(0);
    expect(obsId('npm test -- invoice')).toBeGreaterThan(0); // not shown, not forgotten
  });

  it('forgets a whole session from its timeline, subagent included', async () => {
    const page = browser.page();
    await signIn(page);
    const sid = countRows(h.dataDir, 'SELECT id AS n FROM sessions WHERE host_session_id = ?', SESSION);
    await page.goto(`http://127.0.0.1:${port}/viewer#/session/${sid}`);
    await page.locator('button', { hasText: 'Forget this session' }).click();
    await page.locator('dialog[open]').waitFor();
    expect(await page.locator('#confirm-text').textContent()).toMatch(/1 session|2 session/);
    await page.locator('#confirm-ok').click();
    await page.waitForURL(/#\/sessions$/);
    await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM observations') === 0, 10_000);
    expect(countRows(h.dataDir, "SELECT count(*) AS n FROM sessions WHERE host_session_id = ? OR host_session_id LIKE ?", SESSION, `${SESSION}%`)).toBe(0);
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM prompts')).toBe(0);
  });
});
