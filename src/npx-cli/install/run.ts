/**
 * The non-interactive install (`--yes`, `--ide`, `--all-detected`, `--dry-run`, `--json`, CI, no TTY).
 * Human lines go to stdout, problems to stderr; `--json` prints one document on stdout.
 */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import { VERSION } from '../../shared/version.js';
import { renderPlan } from '../engine/index.js';
import { eprintln, printJson, println, style } from '../output.js';
import { applyInstall, type InstallOutcome } from './apply.js';
import { planInstall, type InstallPlan, type Prepared } from './install-plan.js';
import { buildResults } from './results.js';
import { hostLines, runtimeLines, tildify } from './summary.js';
import type { HostResult } from './types.js';

export const NO_HOST_MESSAGE = 'No supported host was found. Nothing was configured. To add one later: claude-mem install --ide <host>';

export interface RunOptions {
  selected: HostId[];
  dryRun: boolean;
  json: boolean;
  start: boolean;
  /** Consent to the hosts' own after-apply steps (e.g. trusting our Codex hooks through Codex's app-server). */
  consent: boolean;
  codexSubagentTranscripts: boolean;
  /** --enable-hooks: turn on a host's own hook switch the user turned off. */
  enableHooks?: boolean;
  env: NodeJS.ProcessEnv;
}

export interface RunResult {
  exitCode: 0 | 1;
  document: Record<string, unknown>;
}

function printHosts(results: HostResult[], env: NodeJS.ProcessEnv): void {
  for (const r of results.filter((x) => x.selected)) {
    const lines = hostLines(r, env);
    (r.status === 'failed' ? eprintln : println)(lines[0]);
    for (const l of lines.slice(1)) (r.status === 'failed' ? eprintln : println)(l);
  }
}

/** Hosts installed whose own switch keeps capture off: said once more at the end, on stderr. */
function printOff(results: HostResult[]): void {
  const off = results.filter((r) => r.selected && r.status === 'off');
  if (off.length) eprintln(style.yellow(`Capture is OFF for ${off.map((r) => r.label).join(', ')}: your own setting switches their hooks off (see "to turn it on" above).`));
}

function dryRun(plan: InstallPlan, o: RunOptions): RunResult {
  const results = buildResults(plan, { dryRun: true });
  const failed = results.some((r) => r.selected && r.status === 'failed');
  const document = { ok: !failed, version: VERSION, dryRun: true, dataDir: plan.prepared.paths.root, hosts: results, ...(plan.selected.length === 0 && { message: NO_HOST_MESSAGE }) };
  if (!o.json) {
    println(style.bold(`claude-mem ${VERSION} — dry run: nothing is written`));
    if (plan.selected.length === 0) println(NO_HOST_MESSAGE);
    printHosts(results, o.env);
    printOff(results);
    const text = renderPlan(plan.files);
    println(text ? `\n${text}` : '\nNo file would change.');
  }
  // A refused file is a failure in a dry run too: the real run would fail the same way.
  return { exitCode: failed ? 1 : 0, document };
}

function report(out: InstallOutcome, plan: InstallPlan, o: RunOptions): RunResult {
  const document = {
    ok: out.ok, version: VERSION, dryRun: false, dataDir: out.dataDir, created: out.created, port: out.port,
    backups: out.backups, worker: out.worker, hosts: out.results,
    runtime: { dir: out.runtime.dir, launcher: out.runtime.layout.launcher, shim: out.runtime.layout.shim, switched: out.runtime.switched },
    ...(plan.selected.length === 0 && { message: NO_HOST_MESSAGE }),
  };
  if (!o.json) {
    println(style.bold(`claude-mem ${VERSION}`));
    println(`data directory: ${tildify(out.dataDir, o.env)}${out.port ? ` (worker port ${out.port})` : ''}`);
    for (const c of out.created) println(`  created ${tildify(c, o.env)}`);
    if (plan.selected.length === 0) {
      println(NO_HOST_MESSAGE);
      println(`  hosts: ${HOST_IDS.join(', ')}`);
    }
    printHosts(out.results, o.env);
    for (const l of runtimeLines(out.runtime, o.env)) println(l);
    const w = out.worker;
    (w.ok ? println : eprintln)(w.ok ? `worker: ${w.state}${w.pid ? ` (pid ${w.pid}, port ${w.port})` : ''}${w.state === 'not-started' ? ` — ${w.detail}` : ''}` : style.red(`worker: failed — ${w.detail}`));
    printOff(out.results);
    const failed = out.results.filter((r) => r.selected && r.status === 'failed');
    if (failed.length) eprintln(style.red(`${failed.length} host(s) failed: ${failed.map((r) => r.label).join(', ')}. The others were installed.`));
  }
  return { exitCode: out.ok ? 0 : 1, document };
}

export async function runInstall(prepared: Prepared, o: RunOptions): Promise<RunResult> {
  const plan = await planInstall(prepared, o.selected, { codexSubagentTranscripts: o.codexSubagentTranscripts, enableHooks: () => !!o.enableHooks });
  if (o.dryRun) return dryRun(plan, o);
  const out = await applyInstall(plan, { consent: o.consent, start: o.start, env: o.env });
  return report(out, plan, o);
}

export function emit(r: RunResult, json: boolean): void {
  if (json) printJson(r.document);
}
