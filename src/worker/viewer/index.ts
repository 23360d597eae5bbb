/**
 * The viewer: a page the worker serves on its own port (/viewer), its script and style, its JSON
 * reads, its live feed and its writes. The server has checked the Host header before anything
 * here runs; this checks the sign-in cookie on every page and read, and the CSRF token and
 * origin on every write. Captured content only ever travels as JSON and is put on the page as
 * text (client/main.ts), never as HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteContext } from '../routes/types.js';
import { HttpError, isInvalidInputError } from '../routes/errors.js';
import { API_GETS, readsOf } from './api.js';
import { CSRF_HEADER, viewerAuth, type ViewerAuth, type ViewerSession } from './auth.js';
import { VIEWER_CSS, VIEWER_JS, shellPage } from './assets.js';
import { escapeHtml, sendError, sendJson, sendPage, sendText } from './respond.js';
import { say } from './say.js';
import { FeedStream } from './stream.js';
import { HOST_IDS, HOST_LABELS } from '../../shared/hosts.js';
import { API_POSTS, readJsonBody } from './writes.js';

/** Every host's id and label, for the page's badges and host filter. */
const HOSTS_ESCAPED = escapeHtml(JSON.stringify(HOST_IDS.map((id) => [id, HOST_LABELS[id]])));

interface ViewerOptions {
  ctx: RouteContext;
  token: string;
  instanceId: string;
  port(): number;
  dataDir: string;
}

export interface Viewer {
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** A one-time sign-in link (for `claude-mem viewer`, through a signed request). */
  link(): string;
  close(): void;
}

const SIGN_IN_AGAIN = say('Run claude-mem viewer to open the viewer with a fresh one-time link.');

export function createViewer(opts: ViewerOptions): Viewer {
  const auth: ViewerAuth = viewerAuth(opts.token, opts.instanceId, opts.port);
  const stream = new FeedStream(() => readsOf(opts.ctx), (err) => opts.ctx.logger.warn('viewer feed read failed', { err }));

  const open = (res: ServerResponse, url: URL) => {
    const cookie = auth.exchange(url.searchParams.get('code') ?? '');
    if (!cookie) return sendPage(res, 403, 'This link was already used or has expired', [SIGN_IN_AGAIN]);
    // A clean address: the spent code does not stay in the address bar.
    res.writeHead(303, { location: '/viewer', 'set-cookie': cookie, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-length': 0 });
    res.end();
  };

  const signedIn = (req: IncomingMessage, res: ServerResponse, asJson: boolean): ViewerSession | undefined => {
    const s = auth.session(req);
    if (s) return s;
    if (asJson) sendError(res, 401, 'unauthorized', `not signed in to the viewer. ${SIGN_IN_AGAIN}`);
    else sendPage(res, 401, 'Not signed in', ['This page shows your memory, so it opens only through a one-time link.', SIGN_IN_AGAIN]);
    return undefined;
  };

  const answerError = (res: ServerResponse, err: unknown) => {
    if (err instanceof HttpError) return sendJson(res, err.status, { error: { code: err.code, message: err.message, issues: err.issues } });
    if (isInvalidInputError(err)) return sendError(res, 400, 'invalid_query', (err as Error).message);
    opts.ctx.logger.error('viewer request failed', { err });
    sendError(res, 500, 'internal', (err as Error)?.message ?? String(err));
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL, s: ViewerSession) => {
    if (req.method === 'GET') {
      const get = API_GETS[url.pathname];
      if (!get) return sendError(res, 404, 'not_found', `no route ${url.pathname}`);
      return sendJson(res, 200, get(url.searchParams, opts.ctx, opts.dataDir));
    }
    const post = API_POSTS[url.pathname];
    if (req.method !== 'POST' || !post) return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`);
    const problem = auth.writeProblem(req, s);
    if (problem) return sendError(res, 403, 'forbidden', problem);
    const body = await readJsonBody(req);
    return sendJson(res, 200, await post(body, opts.ctx));
  };

  return {
    owns: (p) => p === '/' || p === '/viewer' || p.startsWith('/viewer/'),
    link: () => `http://127.0.0.1:${opts.port()}/viewer/open?code=${auth.mintCode()}`,
    close: () => stream.close(),
    async handle(req, res, url) {
      const p = url.pathname;
      try {
        if (p === '/') {
          res.writeHead(302, { location: '/viewer', 'content-length': 0 });
          return void res.end();
        }
        if (p === '/viewer/app.js') return sendText(res, 200, 'text/javascript', VIEWER_JS);
        if (p === '/viewer/app.css') return sendText(res, 200, 'text/css', VIEWER_CSS);
        if (req.method !== 'GET' && !p.startsWith('/viewer/api/')) return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${p}`);
        if (p === '/viewer/open') return open(res, url);
        const asJson = p.startsWith('/viewer/api/');
        const s = signedIn(req, res, asJson);
        if (!s) return;
        if (p === '/viewer') return sendText(res, 200, 'text/html', shellPage(escapeHtml(s.csrf), CSRF_HEADER, Object.keys(API_POSTS).map((k) => k.slice('/viewer/api/'.length)), HOSTS_ESCAPED));
        if (p === '/viewer/api/stream') {
          if (!stream.add(res)) sendError(res, 503, 'busy', 'too many viewer pages are open');
          return;
        }
        if (asJson) return await api(req, res, url, s);
        sendPage(res, 404, 'Not found', [`There is no viewer page at ${p}.`]);
      } catch (err) {
        answerError(res, err);
      }
    },
  };
}
