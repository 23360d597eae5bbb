/** Sessions by project and host, and one session as a timeline with its subagents nested. */
import type { ViewerItem, ViewerProject, ViewerSession, ViewerSessionDetail } from '../../../store/viewer-reads.js';
import { empty, h, hostBadge, hostLabel, link, replace, time, when } from './dom.js';
import { getJson } from './net.js';
import { forgetButton, observationRow } from './rows.js';

function sessionLine(s: ViewerSession): HTMLElement {
  return h('li', { class: 'session-line' },
    h('a', { href: `#/session/${s.id}`, class: 'row', 'data-kind': 'session' },
      hostBadge(s.host),
      h('span', { class: 'request' }, s.request || (s.isSubagent ? `Subagent ${s.agentId ?? ''}` : 'No prompt captured')),
      h('span', { class: 'muted' }, `${s.prompts} prompt(s), ${s.observations} observation(s)`),
      time(s.startedAt),
      s.endedAt ? null : h('span', { class: 'badge' }, 'open')),
    s.children.length ? h('ul', { class: 'children', 'aria-label': 'Subagent sessions' }, s.children.map(sessionLine)) : null);
}

export async function renderSessions(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const project = params.get('project') ?? '';
  const host = params.get('host') ?? '';
  const [{ projects }, { sessions }] = await Promise.all([
    getJson<{ projects: ViewerProject[] }>('projects'),
    getJson<{ sessions: ViewerSession[] }>('sessions', { project, host, limit: '200' }),
  ]);
  const hosts = [...new Set(projects.flatMap((p) => p.hosts))].sort();
  const go = () => {
    const q = new URLSearchParams();
    if (projectSel.value) q.set('project', projectSel.value);
    if (hostSel.value) q.set('host', hostSel.value);
    location.hash = `#/sessions${q.size ? `?${q}` : ''}`;
  };
  const projectSel = h('select', { id: 'filter-project', onchange: go },
    h('option', { value: '' }, 'All projects'), projects.map((p) => h('option', { value: p.project, selected: p.project === project }, `${p.project} (${p.sessions})`)));
  const hostSel = h('select', { id: 'filter-host', onchange: go },
    h('option', { value: '' }, 'All hosts'), hosts.map((x) => h('option', { value: x, selected: x === host }, hostLabel(x))));
  const byProject = new Map<string, ViewerSession[]>();
  for (const s of sessions) byProject.set(s.project, [...(byProject.get(s.project) ?? []), s]);
  replace(main,
    h('h1', {}, 'Sessions'),
    h('div', { class: 'filters' }, h('label', {}, 'Project ', projectSel), h('label', {}, 'Host ', hostSel)),
    sessions.length ? null : empty('No sessions match.'),
    [...byProject].map(([p, list]) => h('section', { class: 'project' },
      h('h2', {}, p, ' ', link(`#/context?project=${encodeURIComponent(p)}`, 'next context', { class: 'small-link' })),
      h('ul', { class: 'sessions' }, list.map(sessionLine)))));
}

function itemRow(it: ViewerItem, pinned: Set<number>, refresh: () => void): HTMLElement {
  if (it.kind === 'prompt') {
    return h('article', { class: 'row prompt', tabindex: 0, 'data-kind': 'prompt', 'data-id': it.id },
      h('div', { class: 'row-head' }, h('span', { class: 'type' }, `prompt ${it.number}`), time(it.createdAt)),
      h('pre', { class: 'narrative' }, it.text));
  }
  if (it.kind === 'assistant') {
    return h('article', { class: 'row assistant', tabindex: 0, 'data-kind': 'assistant', 'data-id': it.id },
      h('div', { class: 'row-head' }, h('span', { class: 'type' }, 'outcome'), time(it.createdAt)),
      h('pre', { class: 'narrative' }, it.text));
  }
  return observationRow({ ...it.observation, pinned: pinned.has(it.id) }, refresh);
}

function detailBlock(d: ViewerSessionDetail, pinned: Set<number>, refresh: () => void, nested: boolean): HTMLElement {
  const s = d.session;
  const Title = nested ? 'h3' : 'h1';
  return h('section', { class: nested ? 'subagent' : 'session', 'aria-label': nested ? `Subagent session ${s.hostSessionId}` : 'Session' },
    h(Title, {}, hostBadge(s.host), ' ', nested ? `Subagent ${s.agentId ?? s.hostSessionId}` : `Session ${s.hostSessionId}`),
    h('p', { class: 'muted' }, `${s.project}${s.cwd !== s.project ? ` · ${s.cwd}` : ''} · started ${when(s.startedAt)}${s.endedAt ? ` · ended ${when(s.endedAt)}${s.endReason ? ` (${s.endReason})` : ''}` : ' · not ended'}`,
      d.parent ? [' · part of ', link(`#/session/${d.parent.id}`, `session ${d.parent.hostSessionId}`)] : null),
    nested ? null : h('div', { class: 'toolbar' }, forgetButton({ forget: { sessions: [{ hostSessionId: s.hostSessionId, host: s.host }] }, what: `the whole session ${s.hostSessionId}` }, () => (location.hash = '#/sessions'), 'Forget this session')),
    d.summary ? h('div', { class: 'summary' }, h('h2', {}, 'Summary'), h('pre', { class: 'narrative' }, d.summary.text)) : null,
    h('ol', { class: 'timeline' }, d.items.map((it) => h('li', {}, itemRow(it, pinned, refresh)))),
    d.items.length ? null : empty('Nothing was captured in this session.'),
    d.children.map((c) => detailBlock(c, pinned, refresh, true)));
}

export async function renderSession(main: HTMLElement, id: string): Promise<void> {
  const { detail, pinnedIds } = await getJson<{ detail: ViewerSessionDetail | null; pinnedIds: number[] }>('session', { id });
  if (!detail) return replace(main, h('h1', {}, 'Session not found'), empty('It may have been forgotten.'));
  replace(main, detailBlock(detail, new Set(pinnedIds), () => void renderSession(main, id), false));
}
