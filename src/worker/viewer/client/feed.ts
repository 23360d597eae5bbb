/** The live feed: the newest captured rows, and each new one as it is stored (server-sent events). */
import type { FeedRow } from '../../../store/viewer-reads.js';
import { empty, fileList, h, hostBadge, link, replace, time } from './dom.js';
import { getJson } from './net.js';

const MAX_ROWS = 300;

function feedRow(r: FeedRow): HTMLElement {
  return h('article', { class: `row feed-row kind-${r.kind}`, tabindex: 0, 'data-kind': r.kind, 'data-id': r.id },
    h('div', { class: 'row-head' },
      hostBadge(r.host),
      h('span', { class: 'type' }, r.type),
      h('strong', { class: 'title' }, r.title),
      time(r.createdAt),
      link(`#/session/${r.sessionId}`, `${r.project} · session ${r.hostSessionId.slice(0, 12)}`, { class: 'muted' })),
    r.text ? h('pre', { class: 'narrative clamp' }, r.text) : null,
    fileList(r.files.slice(0, 8)));
}

export class LiveFeed {
  private list: HTMLElement | null = null;
  private readonly seen = new Set<string>();
  private source: EventSource | null = null;

  constructor(private readonly status: HTMLElement, private readonly onRows: (rows: FeedRow[]) => void) {}

  /** Opens the stream once for the page's life; the browser reconnects by itself. */
  connect(): void {
    if (this.source) return;
    this.source = new EventSource('/viewer/api/stream');
    this.source.addEventListener('open', () => this.setStatus('live', 'Live'));
    this.source.addEventListener('error', () => this.setStatus('off', 'Reconnecting…'));
    this.source.addEventListener('rows', (e) => {
      const rows = JSON.parse((e as MessageEvent<string>).data) as FeedRow[];
      this.add(rows);
      this.onRows(rows);
    });
  }

  private setStatus(state: string, text: string): void {
    this.status.dataset.state = state;
    this.status.textContent = text;
  }

  async render(main: HTMLElement): Promise<void> {
    const { rows } = await getJson<{ rows: FeedRow[] }>('feed', { limit: '100' });
    this.seen.clear();
    this.list = h('div', { class: 'feed', id: 'feed-list', 'aria-live': 'polite' });
    replace(main, h('h1', {}, 'Live capture'), h('p', { class: 'muted' }, 'What every host sends, newest first; new rows appear as they are stored.'), this.list);
    if (!rows.length) this.list.append(empty('Nothing captured yet. Use any installed host and its prompts and tool calls show up here.'));
    for (const r of rows) this.keep(r, 'append');
  }

  /** New rows from the stream go on top (only while the feed is on screen). */
  private add(rows: FeedRow[]): void {
    if (!this.list || !this.list.isConnected) return;
    this.list.querySelector('.empty')?.remove();
    for (const r of rows) this.keep(r, 'prepend');
    while (this.list.children.length > MAX_ROWS) this.list.lastElementChild?.remove();
  }

  private keep(r: FeedRow, where: 'append' | 'prepend'): void {
    const key = `${r.kind}:${r.id}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const el = feedRow(r);
    if (where === 'append') this.list!.append(el);
    else {
      el.classList.add('fresh');
      this.list!.prepend(el);
    }
  }
}
