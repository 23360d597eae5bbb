/** The viewer's sign-in: one-time codes, the cookie bound to one worker instance and port, and the write checks. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER, LINK_TTL_MS, SESSION_TTL_MS, viewerAuth } from '../../src/worker/viewer/auth.js';

const TOKEN = 'a'.repeat(64);
const req = (headers: Record<string, string>): IncomingMessage => ({ headers } as unknown as IncomingMessage);
const cookieOf = (setCookie: string): string => setCookie.split(';')[0];

describe('viewer sign-in', () => {
  const auth = viewerAuth(TOKEN, 'instance-1', () => 4100);

  it('a code works once, and not after it expires', () => {
    const now = 1_800_000_000_000;
    const code = auth.mintCode(now);
    const set = auth.exchange(code, now + 1000);
    expect(set).toMatch(/^claude_mem_viewer_4100=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(auth.exchange(code, now + 2000)).toBeUndefined();
    const late = auth.mintCode(now);
    expect(auth.exchange(late, now + LINK_TTL_MS + 1)).toBeUndefined();
    expect(auth.exchange('never-minted', now)).toBeUndefined();
  });

  it('the cookie names a session of this instance and port only, until it expires; tampering fails', () => {
    const now = Date.now();
    const cookie = cookieOf(auth.exchange(auth.mintCode(now), now)!);
    expect(auth.session(req({ cookie }), now)?.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.session(req({ cookie: `other=1; ${cookie}` }), now)).toBeDefined();
    expect(auth.session(req({ cookie }), now + SESSION_TTL_MS + 1)).toBeUndefined();
    expect(viewerAuth(TOKEN, 'instance-2', () => 4100).session(req({ cookie }), now)).toBeUndefined();
    expect(viewerAuth('b'.repeat(64), 'instance-1', () => 4100).session(req({ cookie }), now)).toBeUndefined();
    // Moved to another port's cookie name: not ours.
    expect(viewerAuth(TOKEN, 'instance-1', () => 4101).session(req({ cookie: cookie.replace('4100', '4101') }), now)).toBeUndefined();
    const [name, value] = cookie.split('=');
    const [id, until, mac] = value.split('.');
    expect(auth.session(req({ cookie: `${name}=${id}.${Number(until) + 1000}.${mac}` }), now)).toBeUndefined();
    expect(auth.session(req({ cookie: `${name}=${id.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}.${until}.${mac}` }), now)).toBeUndefined();
    expect(auth.session(req({}), now)).toBeUndefined();
  });

  it('a write needs the page origin and its CSRF token', () => {
    const now = Date.now();
    const cookie = cookieOf(auth.exchange(auth.mintCode(now), now)!);
    const s = auth.session(req({ cookie }), now)!;
    const good = { origin: 'http://127.0.0.1:4100', 'sec-fetch-site': 'same-origin', [CSRF_HEADER]: s.csrf };
    expect(auth.writeProblem(req(good), s)).toBeUndefined();
    expect(auth.writeProblem(req({ ...good, origin: 'http://localhost:4100' }), s)).toBeUndefined();
    expect(auth.writeProblem(req({ ...good, origin: 'http://127.0.0.1:4999' }), s)).toMatch(/cross-site/);
    expect(auth.writeProblem(req({ 'sec-fetch-site': 'same-origin', [CSRF_HEADER]: s.csrf }), s)).toMatch(/Origin missing/);
    expect(auth.writeProblem(req({ ...good, 'sec-fetch-site': 'same-site' }), s)).toMatch(/Sec-Fetch-Site/);
    expect(auth.writeProblem(req({ origin: good.origin }), s)).toMatch(new RegExp(CSRF_HEADER));
    expect(auth.writeProblem(req({ ...good, [CSRF_HEADER]: s.csrf.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x')) }), s)).toMatch(new RegExp(CSRF_HEADER));
  });
});
