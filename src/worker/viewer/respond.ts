/**
 * Every viewer answer carries the same strict headers: scripts and styles only from the worker
 * itself (no inline code, no CDN), no framing, no referrer, no MIME sniffing, nothing cached.
 */
import type { ServerResponse } from 'node:http';

const CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function sendText(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, 'application/json', JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A small page of plain text (sign-in problems), escaped. */
export function sendPage(res: ServerResponse, status: number, title: string, lines: string[], headers: Record<string, string> = {}): void {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`
    + `<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/viewer/app.css"></head>`
    + `<body><main class="notice"><h1>${escapeHtml(title)}</h1>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</main></body></html>`;
  sendText(res, status, 'text/html', body, headers);
}

export { escapeHtml };
