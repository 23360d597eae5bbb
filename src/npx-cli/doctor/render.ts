/** Human output: one line per check, grouped by area (and by host), marks on a terminal, words otherwise. */
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import { style } from '../output.js';
import { AREAS, type Check, type CheckStatus, type DoctorReport } from './types.js';

const TITLES = { runtime: 'Runtime', data: 'Data', worker: 'Worker', capture: 'Capture', sync: 'Sync', hosts: 'Hosts' } as const;
const MARKS: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗' };
const WORDS: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
const COLORS = { ok: style.green, warn: style.yellow, fail: style.red } as const;

export interface RenderOptions {
  tty: boolean;
  ms?: number;
}

function lines(c: Check, indent: string, width: number, tty: boolean): string[] {
  const mark = tty ? MARKS[c.status] : WORDS[c.status];
  const out = [`${indent}${COLORS[c.status](mark)} ${c.id.padEnd(width)}  ${c.evidence}`];
  const pad = `${indent}${' '.repeat(mark.length + 1)}`;
  if (c.fix && c.status !== 'ok') out.push(`${pad}fix: ${c.fix}`);
  if (c.detail && c.status !== 'ok') out.push(...c.detail.split('\n').map((l) => `${pad}${style.dim(`| ${l}`)}`));
  return out;
}

export function renderReport(r: DoctorReport, o: RenderOptions): string {
  const { tty } = o;
  const out: string[] = [style.bold(`claude-mem doctor ${r.version}`)];
  const width = Math.min(36, Math.max(...r.checks.map((c) => c.id.length), 10));
  for (const area of AREAS) {
    const list = r.checks.filter((c) => c.area === area);
    if (!list.length) continue;
    out.push('', style.bold(TITLES[area]));
    if (area !== 'hosts') {
      for (const c of list) out.push(...lines(c, '  ', width, tty));
      continue;
    }
    const hosts = [...new Set(list.map((c) => c.host ?? ''))];
    for (const h of hosts) {
      const group = list.filter((c) => (c.host ?? '') === h);
      if (h) out.push(`  ${HOST_LABELS[h as HostId] ?? h}`);
      for (const c of group) out.push(...lines(c, h ? '    ' : '  ', width, tty));
    }
  }
  if (r.fixed.length) {
    out.push('', style.bold('Fixed'));
    for (const f of r.fixed) out.push(`  ${f.ok ? (tty ? '✓' : 'done') : (tty ? '✗' : 'FAILED')} ${f.id}: ${f.action}`);
  }
  const n = (s: CheckStatus) => r.checks.filter((c) => c.status === s).length;
  const took = o.ms !== undefined ? ` in ${(o.ms / 1000).toFixed(1)} s` : '';
  out.push('', `${n('ok')} ok, ${n('warn')} warning(s), ${n('fail')} failure(s)${took}${r.ok ? '' : ' — see the fix lines above'}`);
  return `${out.join('\n')}\n`;
}
