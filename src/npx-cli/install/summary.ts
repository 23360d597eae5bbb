/** Human rendering of install/uninstall results: one block per host, honest about every failure. */
import { homeDir, type Env } from '../../shared/paths.js';
import { onPath, shellPath } from '../command-form.js';
import { style } from '../output.js';
import type { RuntimeInstall } from './runtime.js';
import { captureText, recallText } from './writer-planner.js';
import type { FileResult, HostResult } from './types.js';

export function tildify(p: string, env: Env = process.env): string {
  const home = homeDir(env);
  return home && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p;
}

const MARK = { ok: '✓', off: '!', skipped: '–', failed: '✗' } as const;
const COLOR = { ok: style.green, off: style.yellow, skipped: style.yellow, failed: style.red } as const;

const ACTION: Partial<Record<FileResult['action'], string>> = { 'rolled-back': 'put back', 'not-written': 'not written' };

/** The lines for one host, for install and uninstall alike. */
export function hostLines(r: HostResult, env: Env = process.env): string[] {
  const how = r.capture ? ` capture: ${captureText(r.capture)} · recall: ${recallText(r.recall)}` : '';
  const tail = r.status === 'ok' ? how : r.reason ? ` ${r.reason}` : '';
  const head = `${MARK[r.status]} ${r.label.padEnd(18)} ${tail ? r.status.padEnd(7) : r.status}`;
  const out = [`${COLOR[r.status](head)}${tail}`];
  const pad = '      ';
  if ((r.status === 'failed' || r.status === 'off') && r.fix) out.push(`${pad}${r.status === 'off' ? 'to turn it on' : 'fix'}: ${r.fix}`);
  if (r.status === 'skipped' && r.fix && r.selected) out.push(`${pad}${r.fix.startsWith('claude-mem ') ? 'to include it: ' : 'next: '}${r.fix}`);
  for (const f of r.files) {
    if (f.action !== 'unchanged') out.push(`${pad}${`${ACTION[f.action] ?? f.action} `.padEnd(9)}${tildify(f.path, env)}`);
    for (const n of f.notes ?? []) out.push(`${pad}  note: ${n}`);
  }
  const unchanged = r.files.filter((f) => f.action === 'unchanged').length;
  if (unchanged) out.push(`${pad}${unchanged} file(s) already up to date`);
  for (const d of r.captureDetail) out.push(`${pad}· ${d}`);
  for (const w of r.warnings) out.push(`${pad}${style.yellow(`! ${w}`)}`);
  const saysHow = r.nextSteps.some((s) => s.includes('/hooks'));
  if (r.trust?.fix && r.trust.state !== 'trusted' && !saysHow) out.push(`${pad}${style.yellow(`  fix: ${r.trust.fix}`)}`);
  if (r.status === 'ok' || r.status === 'off') for (const s of r.nextSteps) out.push(`${pad}next: ${s}`);
  // Multi-line texts (a JSON snippet in a next step) stay inside the host's block.
  return out.flatMap((l) => l.split('\n')).map((l, i) => (i === 0 || l.startsWith(pad) ? l : `${pad}  ${l}`));
}

/** The detection table of the interactive flow: every host, what was found, how it would be captured. */
export function detectionTable(rows: ReadonlyArray<{ label: string; found: boolean; evidence: string; capture: string }>): string {
  const w = Math.max(...rows.map((r) => r.label.length));
  return rows
    .map((r) => `${r.found ? style.green('●') : style.dim('○')} ${r.label.padEnd(w)}  ${r.found ? r.evidence : style.dim('not found')}${r.capture ? style.dim(`  → ${r.capture}`) : ''}`)
    .join('\n');
}

/** Where the program now lives and how to run it (said once, after the hosts). */
export function runtimeLines(rt: RuntimeInstall, env: Env = process.env): string[] {
  const lines = [`program: ${tildify(rt.dir, env)}${rt.switched ? ' (hosts now run this copy)' : ''}; hosts start it through ${tildify(rt.layout.launcher, env)}`];
  const m = rt.missed;
  if (m) lines.push(`  ${m.count} hook call(s) between ${m.first} and ${m.last} found no program to run and were lost (${m.reason}); the program is back now`);
  if (onPath(env)) return lines;
  const home = homeDir(env);
  const dir = home && rt.layout.binDir.startsWith(`${home}/`) ? `$HOME${rt.layout.binDir.slice(home.length)}` : rt.layout.binDir;
  lines.push(`command: ${shellPath(rt.layout.shim, env)} (not on your PATH; to type just claude-mem, add this line to your shell profile: export PATH="${dir}:$PATH")`);
  return lines;
}
