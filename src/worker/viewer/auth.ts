/**
 * Who may see the viewer. `claude-mem viewer` asks the worker (a signed request) for a one-time
 * link; opening it swaps the code for a cookie and redirects to the clean page address, so the
 * token itself never travels and the code in the browser's history is spent. The cookie is
 * HttpOnly and SameSite=Strict, named after the port (cookies do not tell ports apart) and signed
 * with the token over this worker instance, so it dies with the worker. A write also needs the
 * page's CSRF token in a header and an Origin (and Sec-Fetch-Site) of the page itself.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** How long a one-time link can be opened. */
export const LINK_TTL_MS = 5 * 60_000;
/** How long the page stays signed in. */
export const SESSION_TTL_MS = 12 * 3600_000;
export const CSRF_HEADER = 'x-claude-mem-csrf';
const MAX_PENDING_LINKS = 32;

export interface ViewerSession {
  id: string;
  csrf: string;
}

export interface ViewerAuth {
  cookieName(): string;
  /** A fresh one-time code for GET /viewer/open?code=… */
  mintCode(now?: number): string;
  /** Spends the code; the Set-Cookie value for the new session, or undefined (unknown, spent, expired). */
  exchange(code: string, now?: number): string | undefined;
  /** The signed-in session a request's cookie names, if valid. */
  session(req: IncomingMessage, now?: number): ViewerSession | undefined;
  /** Why a state-changing request of that session is refused, or undefined when it may go ahead. */
  writeProblem(req: IncomingMessage, s: ViewerSession): string | undefined;
}

const equal = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function viewerAuth(token: string, instanceId: string, port: () => number): ViewerAuth {
  const codes = new Map<string, number>(); // code -> expiry
  const mac = (...fields: (string | number)[]) => createHmac('sha256', token).update(fields.join('\n')).digest('base64url');
  const cookieName = () => `claude_mem_viewer_${port()}`;

  const readCookie = (req: IncomingMessage): string | undefined => {
    const name = cookieName();
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const i = part.indexOf('=');
      if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
    }
    return undefined;
  };

  return {
    cookieName,
    mintCode(now = Date.now()) {
      for (const [c, exp] of codes) if (exp <= now) codes.delete(c);
      // Bounded: an old unopened link gives way to a new one.
      while (codes.size >= MAX_PENDING_LINKS) codes.delete(codes.keys().next().value as string);
      const code = randomBytes(24).toString('base64url');
      codes.set(code, now + LINK_TTL_MS);
      return code;
    },
    exchange(code, now = Date.now()) {
      const exp = codes.get(code);
      codes.delete(code);
      if (exp === undefined || exp <= now) return undefined;
      const id = randomBytes(18).toString('base64url');
      const until = now + SESSION_TTL_MS;
      const value = `${id}.${until}.${mac('viewer-session', instanceId, port(), id, until)}`;
      return `${cookieName()}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(SESSION_TTL_MS / 1000)}`;
    },
    session(req, now = Date.now()) {
      const value = readCookie(req);
      const m = value ? /^([A-Za-z0-9_-]{24})\.(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
      if (!m) return undefined;
      const until = Number(m[2]);
      if (until <= now || !equal(mac('viewer-session', instanceId, port(), m[1], until), m[3])) return undefined;
      return { id: m[1], csrf: mac('viewer-csrf', instanceId, m[1]) };
    },
    writeProblem(req, s) {
      const self = [`http://127.0.0.1:${port()}`, `http://localhost:${port()}`];
      const origin = req.headers.origin;
      if (!origin || !self.includes(origin)) return `cross-site request refused (Origin ${origin ?? 'missing'})`;
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') return `cross-site request refused (Sec-Fetch-Site ${String(site)})`;
      const csrf = req.headers[CSRF_HEADER];
      if (typeof csrf !== 'string' || !equal(csrf, s.csrf)) return `missing or wrong ${CSRF_HEADER} header`;
      return undefined;
    },
  };
}
