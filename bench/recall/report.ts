/** The readable table (stderr, like `npm run bench`) and the targets, met or missed. */
import type { Breakdown, Figures } from './score.js';

export interface Target {
  figure: string;
  value: number;
  target: string;
  met: boolean;
}

const f2 = (n: number): string => n.toFixed(2);
const pct = (n: number): string => `${(n * 100).toFixed(1)} %`;

function row(label: string, f: Figures, withEmpty: boolean): string {
  const cells = [f2(f.hit1), f2(f.hit5), f2(f.hit10), f2(f.mrr)].map((c) => c.padStart(6));
  return `  ${label.padEnd(54)}${cells.join('')}${withEmpty ? pct(f.empty).padStart(9) : ''.padStart(9)}${String(f.n).padStart(6)}`;
}

const SYSTEM_LABEL: Record<Breakdown['system'], string> = {
  'claude-mem': 'claude-mem search',
  'bm25-raw': 'BM25 raw text, all sessions',
  'bm25-project': 'BM25 raw text, own project',
};

export function table(title: string, rows: Breakdown[]): string {
  const out = [`${title}`, `  ${''.padEnd(54)}${['hit@1', 'hit@5', 'hit@10', 'MRR'].map((h) => h.padStart(6)).join('')}${'empty'.padStart(9)}${'n'.padStart(6)}`];
  for (const b of rows) {
    const label = `${SYSTEM_LABEL[b.system]}  ${b.form}${b.style === 'all' ? '' : ` · ${b.style}`}`;
    out.push(row(label, b.figures, b.system === 'claude-mem'));
  }
  return out.join('\n');
}

export function find(rows: Breakdown[], system: Breakdown['system'], form: Breakdown['form']): Figures | undefined {
  return rows.find((b) => b.system === system && b.form === form && b.style === 'all')?.figures;
}

/** The issue's targets against the headline questions of this run. */
export function targets(rows: Breakdown[], lastTime: number | null, withinBudget?: number): Target[] {
  const out: Target[] = [];
  for (const form of ['asked', 'keywords'] as const) {
    const mine = find(rows, 'claude-mem', form);
    const base = find(rows, 'bm25-raw', form);
    if (!mine || !base) continue;
    out.push({ figure: `hit@5, ${form}`, value: mine.hit5, target: '≥ 0.90', met: mine.hit5 >= 0.9 });
    out.push({ figure: `hit@5, ${form}, above raw-text BM25 (${f2(base.hit5)})`, value: mine.hit5 - base.hit5, target: '≥ +0.10', met: mine.hit5 - base.hit5 >= 0.1 - 1e-9 });
    out.push({ figure: `MRR, ${form}`, value: mine.mrr, target: '≥ 0.75', met: mine.mrr >= 0.75 });
  }
  if (lastTime !== null) out.push({ figure: '"what was I doing last time" from session-start context', value: lastTime, target: '≥ 90 %', met: lastTime >= 0.9 });
  if (withinBudget !== undefined) out.push({ figure: 'context injections within their token budget (share)', value: withinBudget, target: '= 1.00', met: withinBudget === 1 });
  return out;
}

export function targetLines(list: Target[]): string {
  return list.map((t) => {
    const value = t.figure.startsWith('"what') ? pct(t.value) : t.value >= 0 && t.figure.includes('above') ? `+${f2(t.value)}` : f2(t.value);
    return `${t.met ? 'ok  ' : 'MISS'} ${t.figure.padEnd(58)} ${value.padStart(8)}   target ${t.target}`;
  }).join('\n');
}
