/**
 * The interactive install (a TTY, no --yes, no CI): what was found, which hosts, the plan (with
 * the diffs on request), confirm, progress, an honest summary. Cancelling any prompt (Esc or
 * Ctrl-C) changes nothing and exits 130. The prompt functions are injected so tests can drive it.
 */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import { VERSION } from '../../shared/version.js';
import { runnable } from '../command-form.js';
import { renderPlan } from '../engine/index.js';
import { applyInstall, type InstallOutcome } from './apply.js';
import { describeDetection } from './detect.js';
import { detectedIds, filesOf, hostChanges, planInstall, type InstallPlan, type Prepared } from './install-plan.js';
import { captureText } from './writer-planner.js';
import { detectionTable, hostLines, runtimeLines, tildify } from './summary.js';
import type { Prompter } from './prompter.js';

export type { Prompter } from './prompter.js';

export const CANCEL_EXIT = 130;

const short = (s: string) => (s.length > 90 ? `${s.slice(0, 87)}…` : s);

/** @clack/prompts, its messages' `claude-mem <command>`s in the form that runs here (as println does). */
export async function clackPrompter(): Promise<Prompter> {
  const p = await import('@clack/prompts');
  const r = (m: string) => runnable(m);
  return {
    intro: p.intro, outro: (m) => p.outro(r(m)), cancel: (m) => p.cancel(r(m)), note: (m, t) => p.note(r(m), t), isCancel: p.isCancel,
    multiselect: (o) => p.multiselect(o as Parameters<typeof p.multiselect>[0]) as never,
    select: (o) => p.select(o as Parameters<typeof p.select>[0]) as never,
    spinner: () => p.spinner(),
    log: { info: (m) => p.log.info(r(m)), success: (m) => p.log.success(r(m)), warn: (m) => p.log.warn(r(m)), error: (m) => p.log.error(r(m)), message: (m) => p.log.message(r(m)) },
  };
}

export interface InteractiveOptions {
  /** Hosts named with --ide (the host question is skipped). */
  preselected?: HostId[];
  start: boolean;
  codexSubagentTranscripts: boolean;
  /** --enable-hooks: the question about a host's own hook switch is already answered. */
  enableHooks?: boolean;
  env: NodeJS.ProcessEnv;
  /** Where "show the diffs" prints (stdout). */
  write: (text: string) => void;
  /** --import-history / --no-import-history: the question about past sessions is answered. */
  importHistory?: boolean;
}

function planNote(plan: InstallPlan, env: NodeJS.ProcessEnv): string {
  const lines: string[] = [];
  for (const id of plan.selected) {
    const h = plan.hosts.get(id)!;
    if (h.error) {
      lines.push(`✗ ${h.label}: will fail — ${h.error.reason}`, ...(h.error.fix ? [`    fix: ${h.error.fix}`] : []));
      continue;
    }
    if (h.decision?.skip) {
      lines.push(`– ${h.label}: skipped — ${h.decision.skip}`);
      continue;
    }
    const files = filesOf(plan, id);
    const changing = files.filter((f) => hostChanges(f, id));
    lines.push(`● ${h.label} (${captureText(h.decision?.capture ?? null)})${changing.length === 0 ? ': already up to date' : ''}`);
    for (const f of changing) lines.push(`    ${f.existed ? 'modify' : 'create'} ${tildify(f.path, env)}`);
    if (h.killSwitch) lines.push(h.killSwitch.turnOn ? `    turn hooks on: ${h.killSwitch.off.setting} (as you asked)` : `    capture stays OFF: ${h.killSwitch.off.setting} (your setting)`);
    const step = h.detected.module.afterApply?.preview(h.decision);
    if (step) lines.push(`    ${step}`);
  }
  return lines.join('\n');
}

/**
 * A host whose own switch turns every hook off is asked about, one by one: leaving it off is the
 * default, turning it on is the user's call. Undefined when a question was cancelled.
 */
async function askKillSwitches(prepared: Prepared, selected: HostId[], p: Prompter, o: InteractiveOptions): Promise<InstallPlan | undefined> {
  const opts = { codexSubagentTranscripts: o.codexSubagentTranscripts };
  const first = await planInstall(prepared, selected, { ...opts, enableHooks: () => !!o.enableHooks });
  const yes = new Set<HostId>();
  for (const h of first.hosts.values()) {
    if (!h.killSwitch || h.killSwitch.turnOn) continue;
    const { setting, file } = h.killSwitch.off;
    const answer = await p.select<'keep' | 'on'>({
      message: `${h.label}: ${setting} in ${tildify(file, o.env)} switches off every hook, claude-mem's included. Turn hooks on?`,
      options: [
        { value: 'keep', label: `Leave it off (nothing from ${h.label} is captured)` },
        { value: 'on', label: 'Turn hooks on (uninstall puts your setting back)' },
      ],
      initialValue: 'keep',
    });
    if (p.isCancel(answer)) return undefined;
    if (answer === 'on') yes.add(h.id);
  }
  return yes.size ? planInstall(prepared, selected, { ...opts, enableHooks: (id) => !!o.enableHooks || yes.has(id) }) : first;
}

/** Past sessions of the hosts just installed: asked about, or as the flags say. */
async function offerHistory(p: Prompter, out: InstallOutcome, o: InteractiveOptions): Promise<void> {
  if (o.importHistory === false) return;
  const hosts = out.results.filter((r) => r.selected && r.status !== 'failed' && r.status !== 'skipped').map((r) => r.id);
  if (!hosts.length) return;
  const history = await import('./history.js');
  if (o.importHistory) {
    const offer = await history.findOffer(hosts, o.env);
    if (!offer.recent.length) return;
    p.note(history.offerLines(offer).join('\n'), 'Past sessions on this machine');
    const { runHistoryImport } = await import('../import/session.js');
    p.log.success(history.summaryLine(await runHistoryImport({ plan: offer.recent, dataDir: out.dataDir, progress: true, request: { sinceMs: offer.sinceMs } })));
    return;
  }
  await history.offerInteractively(p, hosts, out.dataDir, o.env);
}

export async function runInteractive(prepared: Prepared, p: Prompter, o: InteractiveOptions): Promise<number> {
  const cancelled = () => {
    p.cancel('Cancelled. Nothing was changed.');
    return CANCEL_EXIT;
  };
  p.intro(`claude-mem ${VERSION}`);

  // Plan every host once, only to say how each one would be captured.
  const overview = await planInstall(prepared, HOST_IDS.filter((id) => prepared.detected.some((d) => d.module.id === id)), { codexSubagentTranscripts: o.codexSubagentTranscripts });
  const rows = prepared.detected.map((d) => {
    const h = overview.hosts.get(d.module.id);
    return { label: d.module.label, found: d.detection.installed, evidence: describeDetection(d, o.env), capture: h?.error ? `cannot install: ${short(h.error.reason)}` : captureText(h?.decision?.capture ?? null) };
  });
  const found = detectedIds(prepared);
  p.note(detectionTable(rows), `${found.length} of ${prepared.detected.length} hosts found on this machine`);

  let selected = o.preselected;
  if (!selected) {
    const answer = await p.multiselect<HostId>({
      message: 'Which hosts should share memory? (space toggles, enter confirms)',
      options: prepared.detected.map((d) => ({ value: d.module.id, label: d.module.label, hint: d.detection.installed ? describeDetection(d, o.env) : 'not found' })),
      initialValues: found,
      required: false,
    });
    if (p.isCancel(answer)) return cancelled();
    selected = answer;
  }
  if (selected.length === 0) {
    p.outro('No host selected. Nothing was changed.');
    return 0;
  }

  const plan = await askKillSwitches(prepared, selected, p, o);
  if (plan === undefined) return cancelled();
  p.note(planNote(plan, o.env), 'The plan');
  for (;;) {
    const next = await p.select<'install' | 'diff' | 'cancel'>({
      message: 'Go ahead?',
      options: [
        { value: 'install', label: 'Install' },
        { value: 'diff', label: 'Show the diffs first' },
        { value: 'cancel', label: 'Cancel (change nothing)' },
      ],
      initialValue: 'install',
    });
    if (p.isCancel(next) || next === 'cancel') return cancelled();
    if (next === 'install') break;
    o.write(renderPlan(plan.files) || 'No file would change.\n');
  }

  // One spinner for the step in progress; host results and problems as log lines.
  const spin = p.spinner();
  let active: string | undefined;
  const say = (m: string, level: 'info' | 'ok' | 'warn' | 'error') => {
    if (active !== undefined) spin.stop(active);
    active = undefined;
    if (level === 'info') {
      spin.start(m);
      active = m;
    } else (level === 'ok' ? p.log.success : level === 'warn' ? p.log.warn : p.log.error)(m);
  };
  say('Writing configuration…', 'info');
  const out = await applyInstall(plan, { consent: true, start: o.start, env: o.env, onProgress: say });
  if (active !== undefined) spin.stop(active);
  p.note(out.results.filter((r) => r.selected).map((r) => hostLines(r, o.env).join('\n')).join('\n'), 'Summary');
  p.log.info(runtimeLines(out.runtime, o.env).join('\n'));
  if (!out.worker.ok) p.log.error(`Worker: ${out.worker.detail}`);
  else if (out.worker.state === 'not-started') p.log.info(`Worker ${out.worker.detail}`);
  await offerHistory(p, out, o);
  const failed = out.results.filter((r) => r.selected && r.status === 'failed');
  const warned = out.results.filter((r) => r.selected && (r.status === 'off' || (r.status === 'ok' && r.warnings.length > 0)));
  p.outro(failed.length ? `Finished with ${failed.length} failed host(s); the others are installed.`
    : warned.length ? `Installed; ${warned.map((r) => r.label).join(', ')} need${warned.length === 1 ? 's' : ''} the step marked "!" above.`
      : 'Memory is shared. Run `claude-mem doctor` any time to check.');
  return out.ok ? 0 : 1;
}
