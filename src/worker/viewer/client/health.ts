/** Capture health per host (doctor's figures) with the plain explanation of anything off. */
import type { CaptureHealth } from '../health.js';
import { h, hostBadge, replace, when } from './dom.js';
import { getJson } from './net.js';

const STATUS = { ok: 'OK', quiet: 'Nothing yet', problem: 'Needs attention' } as const;

export async function renderHealth(main: HTMLElement): Promise<void> {
  const hh = await getJson<CaptureHealth>('health');
  const rows = hh.hosts.map((x) => h('tr', { class: `status-${x.status}` },
    h('th', { scope: 'row' }, hostBadge(x.host)),
    h('td', {}, h('span', { class: `pill pill-${x.status}` }, STATUS[x.status])),
    h('td', {}, when(x.traffic?.lastPromptAt) || '—'),
    h('td', {}, when(x.traffic?.lastToolResultAt) || '—'),
    h('td', {}, when(x.traffic?.lastSessionEndAt ?? x.traffic?.lastTurnEndAt) || '—'),
    h('td', {}, h('p', {}, x.explanation), x.fix ? h('p', { class: 'fix' }, x.fix) : null)));
  replace(main, h('h1', {}, 'Capture health'),
    h('p', { class: 'muted' }, `As of ${when(hh.at)}. The same figures as claude-mem doctor, from real sessions (doctor's probes left out).`),
    hh.hosts.length
      ? h('table', { class: 'health' },
        h('thead', {}, h('tr', {}, ['Host', 'State', 'Last prompt', 'Last tool result', 'Last session end', 'What it means'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows))
      : h('p', { class: 'muted' }, hh.installHint),
    h('section', { class: 'cards' },
      h('div', { class: `card status-${hh.spool.status}` }, h('h2', {}, 'Spool'), h('p', { class: 'figure' }, `${hh.spool.files} file(s)`), h('p', {}, hh.spool.explanation)),
      h('div', { class: `card status-${hh.deadLetters.count ? 'problem' : 'ok'}` }, h('h2', {}, 'Dead letters'), h('p', { class: 'figure' }, String(hh.deadLetters.count)), h('p', {}, hh.deadLetters.explanation),
        hh.deadLetters.newest.length ? h('ul', {}, hh.deadLetters.newest.map((d) => h('li', {}, `${when(d.at)} ${d.source}: ${d.reason}`))) : null),
      h('div', { class: `card status-${hh.lost ? 'problem' : 'ok'}` }, h('h2', {}, 'Lost events'), h('p', { class: 'figure' }, String(hh.lost?.count ?? 0)),
        h('p', {}, hh.lost?.explanation ?? 'No capture was lost: every event was stored or spooled.')),
      hh.storage ? h('div', { class: 'card status-problem' }, h('h2', {}, 'Database writes'), h('p', {}, `Refused since ${when(hh.storage.since)}: ${hh.storage.code}. ${hh.storageFix}`)) : null));
}
