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
  try {
    switch (view || 'feed') {
      case 'feed':
        fresh = 0;
        await feed.render(main);
        break;
      case 'sessions':
        await renderSessions(main, params);
        break;
      case 'session':
        await renderSession(main, arg ?? '');
        break;
      case 'search':
        await renderSearch(main, params);
        break;
      case 'context':
        await renderContext(main, params);
        break;
      case 'health':
        await renderHealth(main);
        break;
      default:
        replace(main, problem(new Error(`No view "${view}".`)));
    }
  } catch (err) {
    replace(main, problem(err));
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
