/**
 * The viewer page: a hash router over six views, the live stream, and keyboard use
 * (1–5 switch views, / searches, j/k move between rows, Enter opens the focused row's link).
 */
import { renderContext } from './context.js';
import { problem, replace } from './dom.js';
import { LiveFeed } from './feed.js';
import { renderHealth } from './health.js';
import { renderSearch } from './search.js';
import { renderSession, renderSessions } from './sessions.js';

const main = document.getElementById('main') as HTMLElement;
const status = document.getElementById('live') as HTMLElement;
let fresh = 0;
const feed = new LiveFeed(status, (rows) => {
  if (currentView() !== 'feed') {
    fresh += rows.length;
    status.textContent = `Live · ${fresh} new`;
  }
});

function currentView(): string {
  return (location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] || 'feed');
}

async function route(): Promise<void> {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const params = new URLSearchParams(query);
  const [view, arg] = path.split('/');
  for (const a of document.querySelectorAll('header nav a')) {
    a.toggleAttribute('aria-current', a.getAttribute('href') === `#/${view || 'feed'}`);
  }
  // Each visit renders into an element of its own: a view still loading when the user moves on
  // finishes into a detached element instead of over the new one.
  const el = document.createElement('div');
  el.className = 'view';
  main.replaceChildren(el);
  try {
    switch (view || 'feed') {
      case 'feed':
        fresh = 0;
        await feed.render(el);
        break;
      case 'sessions':
        await renderSessions(el, params);
        break;
      case 'session':
        await renderSession(el, arg ?? '');
        break;
      case 'search':
        await renderSearch(el, params);
        break;
      case 'context':
        await renderContext(el, params);
        break;
      case 'health':
        await renderHealth(el);
        break;
      default:
        replace(el, problem(new Error(`No view "${view}".`)));
    }
  } catch (err) {
    replace(el, problem(err));
  }
  document.body.dataset.view = view || 'feed';
}

function moveFocus(step: number): void {
  const rows = [...main.querySelectorAll<HTMLElement>('.row')];
  if (!rows.length) return;
  const at = rows.indexOf(document.activeElement as HTMLElement);
  const next = rows[Math.min(rows.length - 1, Math.max(0, at < 0 ? 0 : at + step))];
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName) || document.querySelector('dialog[open]')) return;
  const nav = document.querySelector<HTMLAnchorElement>(`header nav a[data-key="${e.key}"]`);
  if (nav) {
    location.hash = nav.getAttribute('href')!;
    e.preventDefault();
  } else if (e.key === '/') {
    e.preventDefault();
    if (currentView() === 'search') document.getElementById('search-q')?.focus();
    else location.hash = '#/search';
  } else if (e.key === 'j' || e.key === 'k') {
    moveFocus(e.key === 'j' ? 1 : -1);
  } else if (e.key === 'Enter' && t.classList.contains('row') && t.tagName !== 'A') {
    t.querySelector<HTMLAnchorElement>('a[href^="#/session/"]')?.click();
  }
});

window.addEventListener('hashchange', () => void route());
feed.connect();
void route();
