/**
 * The page shell, script and style. scripts/build.mjs bundles client/main.ts and client/style.css
 * into the worker (no files to find at run time, nothing fetched from elsewhere).
 */
declare const __CLAUDE_MEM_VIEWER_JS__: string | undefined;
declare const __CLAUDE_MEM_VIEWER_CSS__: string | undefined;

const NOT_BUILT = 'document.body.textContent = "The viewer was not built: run npm run build.";';

export const VIEWER_JS: string = typeof __CLAUDE_MEM_VIEWER_JS__ === 'string' ? __CLAUDE_MEM_VIEWER_JS__ : NOT_BUILT;
export const VIEWER_CSS: string = typeof __CLAUDE_MEM_VIEWER_CSS__ === 'string' ? __CLAUDE_MEM_VIEWER_CSS__ : '';

/**
 * The HTML shell: no captured data in it, only the CSRF token (already escaped) the page's writes
 * send, and the hosts' ids and labels (already escaped JSON; the client cannot import the host
 * facts, which are node modules).
 */
export function shellPage(csrfEscaped: string, csrfHeader: string, writes: readonly string[], hostsEscaped: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="claude-mem-csrf" content="${csrfEscaped}" data-header="${csrfHeader}" data-writes="${writes.join(',')}">
<meta name="claude-mem-hosts" content="${hostsEscaped}">
<title>claude-mem</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/viewer/app.css">
<script src="/viewer/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <strong class="brand">claude-mem</strong>
  <nav aria-label="Views">
    <a href="#/feed" data-key="1">Live</a>
    <a href="#/sessions" data-key="2">Sessions</a>
    <a href="#/search" data-key="3">Search</a>
    <a href="#/context" data-key="4">Next context</a>
    <a href="#/health" data-key="5">Capture health</a>
  </nav>
  <span id="live" class="live" role="status" aria-live="polite"></span>
</header>
<main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
<dialog id="confirm" aria-labelledby="confirm-text"><p id="confirm-text"></p><div class="actions"><button type="button" id="confirm-cancel">Cancel</button> <button type="button" id="confirm-ok" class="danger">Forget</button></div></dialog>
</body>
</html>
`;
}
