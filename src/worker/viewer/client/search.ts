/** Search with the CLI's filters (project, host, type, dates, file), results grouped by session. */
import type { SearchAnswer, SearchResult } from '../../../store/types.js';
import { HOST_IDS } from './hosts.js';
import { empty, fileList, h, hostBadge, hostLabel, link, replace, snippet, time } from './dom.js';
import { getJson } from './net.js';
import { forgetButton } from './rows.js';

const TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note', 'prompt', 'assistant', 'summary'];
const FIELDS = ['q', 'project', 'host', 'type', 'since', 'until', 'file'] as const;

function resultBlock(r: SearchResult): HTMLElement {
  return h('section', { class: 'result' },
    h('h2', {}, link(`#/session/${r.sessionId}`, `Session ${r.hostSessionId}`), ' ', hostBadge(r.host), ' ', h('span', { class: 'muted' }, r.project), ' ', time(r.startedAt)),
    r.request ? h('p', {}, h('span', { class: 'label' }, 'Asked: '), r.request) : null,
    r.outcome ? h('p', {}, h('span', { class: 'label' }, 'Outcome: '), r.outcome) : null,
    h('ul', { class: 'evidence' }, r.turns.flatMap((t) => t.evidence.map((e) =>
      h('li', { class: 'row', tabindex: 0, 'data-kind': e.kind, 'data-id': e.id },
        h('span', { class: 'type' }, e.type), ' ', h('strong', {}, e.title), ' ', h('span', { class: 'muted' }, e.kind === 'observation' ? `#${e.id}` : `#${e.kind[0]}${e.id}`),
        h('div', {}, snippet(e.snippet)))))),
    fileList(r.files.slice(0, 8)));
}

export async function renderSearch(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const input = (name: string, attrs: Record<string, string> = {}) =>
    h('input', { name, id: `search-${name}`, value: params.get(name) ?? '', ...attrs });
  const form = h('form', { class: 'search-form', role: 'search' },
    h('label', { class: 'wide' }, 'Words ', input('q', { type: 'search', placeholder: 'a few distinctive words; "a phrase"; prefix*', autocomplete: 'off' })),
    h('label', {}, 'Project ', input('project')),
    h('label', {}, 'Host ', h('select', { name: 'host', id: 'search-host' }, h('option', { value: '' }, 'any'),
      HOST_IDS.map((x) => h('option', { value: x, selected: params.get('host') === x }, hostLabel(x))))),
    h('label', {}, 'Type ', h('select', { name: 'type', id: 'search-type' }, h('option', { value: '' }, 'any'),
      TYPES.map((x) => h('option', { value: x, selected: params.get('type') === x }, x)))),
    h('label', {}, 'Since ', input('since', { type: 'date' })),
    h('label', {}, 'Until ', input('until', { type: 'date' })),
    h('label', {}, 'File ', input('file', { placeholder: 'path or suffix' })),
    h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    const data = new FormData(form);
    for (const f of FIELDS) {
      const v = String(data.get(f) ?? '').trim();
      if (v) q.set(f, v);
    }
    location.hash = `#/search?${q}`;
  });
  const out = h('div', { id: 'search-results' });
  replace(main, h('h1', {}, 'Search'), form, out);
  (form.querySelector('#search-q') as HTMLInputElement).focus();
  if (![...FIELDS].some((f) => params.get(f))) return;
  const query: Record<string, string | undefined> = {};
  for (const f of FIELDS) query[f] = params.get(f) ?? undefined;
  const t0 = performance.now();
  const answer = await getJson<SearchAnswer>('search', query);
  const ms = Math.round(performance.now() - t0);
  // Forgetting the result set forgets exactly the rows shown, by kind.
  const shown = { observationIds: [] as number[], promptIds: [] as number[], assistantIds: [] as number[], summaryIds: [] as number[] };
  const key = { observation: 'observationIds', prompt: 'promptIds', assistant: 'assistantIds', summary: 'summaryIds' } as const;
  for (const r of answer.results) for (const t of r.turns) for (const e of t.evidence) shown[key[e.kind]].push(e.id);
  const rowsShown = Object.values(shown).reduce((n, l) => n + l.length, 0);
  replace(out,
    h('p', { class: 'muted', id: 'search-count' }, `${answer.results.length} session(s) in ${ms} ms`, ' ',
      rowsShown ? forgetButton({ forget: shown, what: `the ${rowsShown} row(s) these results show` }, () => void renderSearch(main, params), 'Forget these results') : null),
    answer.results.length ? answer.results.map(resultBlock) : empty('No results. Try fewer, more distinctive words, or fewer filters.'));
}
