/**
 * `claude-mem hook <host> <event>`: runs inside someone else's agent on every prompt and tool
 * call. It reads the host's JSON, stores what happened (worker or spool), prints the host's
 * answer and exits 0, whatever goes wrong. Bundled alone (dist/hook.js) and kept light.
 */
import { writeSync } from 'node:fs';
import type { CaptureEvent } from '../shared/capture-event.js';
import { resolveHostId, type HookHostId } from '../shared/hosts.js';
import { dataDir, dataPaths, type DataPaths } from '../shared/paths.js';
import { sanitizeEvent } from '../shared/privacy.js';
import { getAdapter } from './adapters/index.js';
import { contextLimits, fetchContext, sinceStartMs } from './context.js';
import { createHookLog, errorText, type HookLog } from './debug-log.js';
import { deliver } from './deliver.js';
import { createWorkerLink } from './link.js';
import { parsePayload } from './payload.js';
import { writeSpool } from '../shared/spool.js';
import { readStdin, STDIN_DEADLINE_MS, STDIN_MAX_BYTES } from './stdin.js';
import type { AdapterResult, HookAdapter } from './types.js';

/** Deadline of one POST of captured events: past it the events go to the spool. */
const CAPTURE_TIMEOUT_MS = 300;

/** Past the stdin deadline, capture and the context budget, the watchdog answers and exits. */
const HARD_LIMIT_SLACK_MS = 1500;

interface Run {
  host?: HookHostId;
  event: string;
  adapter: HookAdapter | undefined;
  log: HookLog;
  /** The host's neutral answer, printed when anything fails. */
  fallback(): string;
}

function parseArgs(argv: string[]): { hostArg: string; event: string } {
  const args = argv[0] === 'hook' ? argv.slice(1) : argv;
  return { hostArg: args[0] ?? '', event: args[1] ?? '' };
}

function resolveHost(arg: string): HookHostId | undefined {
  return arg.trim().toLowerCase() === 'raw' ? 'raw' : resolveHostId(arg);
}

/** Privacy runs here, before the spool or the worker sees anything. A failing filter drops the event. */
function sanitizeAll(events: CaptureEvent[], log: HookLog): CaptureEvent[] {
  const out: CaptureEvent[] = [];
  for (const e of events) {
    try {
      const clean = sanitizeEvent(e);
      if (clean) out.push(clean);
    } catch (err) {
      log.problem(`privacy filter failed; ${e.kind} event dropped: ${errorText(err)}`);
    }
  }
  return out;
}

/**
 * Prompt-time memory is chosen by the prompt's text, only as privacy left it (a dropped event
 * sends none). A host whose prompt another event stores (Kimi Code) still names the text.
 */
function contextMode(result: AdapterResult, events: CaptureEvent[], target: { host: CaptureEvent['host']; sessionId: string; cwd: string }, log: HookLog): { mode: 'session' | 'prompt'; prompt?: string } {
  const stored = events.find((e) => e.kind === 'prompt' && !e.privateTurn)?.prompt;
  if (stored !== undefined || result.events.some((e) => e.kind === 'prompt')) return { mode: 'prompt', prompt: stored };
  if (result.contextPrompt === undefined) return { mode: 'session' };
  const probe = { ...target, source: 'hook', kind: 'prompt', prompt: result.contextPrompt, at: new Date().toISOString() } as CaptureEvent;
  const clean = sanitizeAll([probe], log)[0];
  return { mode: 'prompt', prompt: clean && !clean.privateTurn ? clean.prompt : undefined };
}

function writeStdout(text: string): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      // process.stdout is set up only when there is something to print: it costs a stream.
      process.stdout.on('error', () => {});
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve());
    } catch {
      resolve();
    }
  });
}

async function handle(run: Run, paths: DataPaths): Promise<string> {
  const { host, adapter, log } = run;
  const input = await readStdin({ deadlineMs: STDIN_DEADLINE_MS, maxBytes: STDIN_MAX_BYTES });
  if (!host || !adapter) {
    log.detail('unknown host; nothing to do');
    return '';
  }
  if (input.timedOut) log.detail('stdin still open after the deadline; using what arrived');
  if (input.truncated) log.problem(`stdin over ${STDIN_MAX_BYTES} bytes; payload truncated`);
  const payload = parsePayload(input.text, input.truncated, input.tail);
  const env = process.env;

  const result: AdapterResult = adapter.normalize({ host, event: run.event, payload, rawStdin: input.text, env, now: new Date().toISOString() });
  const event = result.resolvedEvent || run.event;
  for (const n of result.notes) log.detail(n);
  // Adapters check who really called (identifyCaller) and say so in dropReason.
  const dropReason = result.dropReason;
  if (dropReason) log.detail(`not stored: ${dropReason}`);
  const events = dropReason ? [] : sanitizeAll(result.events, log);

  const link = createWorkerLink(paths, env, log);
  if (events.length && killedWhileWaiting(events, paths, log)) return '';
  const capture = events.length ? deliver(events, { paths, link, log, timeoutMs: CAPTURE_TIMEOUT_MS }) : Promise.resolve(undefined);
  let context: Promise<string> = Promise.resolve('');
  const target = result.session ?? events[0] ?? result.events[0];
  if (result.wantsContext && !dropReason && target) {
    const { budgetMs: deadline, maxTokens } = contextLimits(env, paths);
    armWatchdog(Math.max(deadline, STDIN_DEADLINE_MS + 2 * CAPTURE_TIMEOUT_MS) + HARD_LIMIT_SLACK_MS, run);
    const { mode, prompt } = contextMode(result, events, target, log);
    context = fetchContext({
      cwd: target.cwd, host: target.host, sessionId: target.sessionId, mode, prompt, maxTokens, deadline, once: result.contextOnce,
    }, link, log);
  }
  const [outcome, text] = await Promise.all([capture, context]);
  inFlight = undefined;
  if (outcome) log.detail(`${events.length} event(s) ${outcome}; context ${text.length} chars; ${Math.round(sinceStartMs())} ms`);
  return adapter.formatOutput(event, text);
}

/**
 * Events normalized but not yet acknowledged or spooled. Some hosts end a hook with SIGTERM and
 * SIGKILL 100 ms later (Kimi Code, at the end of a turn, for its fire-and-forget hooks): on SIGTERM
 * these are spooled synchronously before the process leaves. A redelivery of events the worker
 * already stored is a duplicate (idempotency keys), so nothing is stored twice.
 */
let inFlight: { events: CaptureEvent[]; paths: DataPaths; log: HookLog } | undefined;
let terminated = false;

function spoolNow(events: CaptureEvent[], paths: DataPaths, log: HookLog): void {
  try {
    writeSpool(paths.spool, events);
    log.detail(`terminated by the host; ${events.length} event(s) spooled`);
  } catch (err) {
    log.problem(`LOST ${events.length} event(s) on termination: cannot spool: ${errorText(err)}`);
  }
}

/** Registers the events as in flight; when the host already asked us to leave, spools them now. */
function killedWhileWaiting(events: CaptureEvent[], paths: DataPaths, log: HookLog): boolean {
  inFlight = { events, paths, log };
  if (!terminated) return false;
  spoolNow(events, paths, log);
  inFlight = undefined;
  process.exit(0);
}

function onTerminate(): void {
  terminated = true;
  const pending = inFlight;
  inFlight = undefined;
  if (!pending) return; // still reading the payload: its events are spooled as soon as they exist
  spoolNow(pending.events, pending.paths, pending.log);
  process.exit(0);
}

let watchdog: NodeJS.Timeout | undefined;

/**
 * Last line of defence against anything that hangs: answer neutrally and leave. Unref'd, so it
 * never keeps the process alive by itself.
 */
function armWatchdog(ms: number, run: Run): void {
  if (watchdog) clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    run.log.problem(`hard time limit (${ms} ms) reached; answering without context`);
    void finish(run.fallback()).then(() => process.exit(0));
  }, ms);
  watchdog.unref();
}

let printed = false;

async function finish(out: string): Promise<void> {
  process.exitCode = 0;
  if (printed) return;
  printed = true;
  await writeStdout(out);
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = 0;
  const { hostArg, event } = parseArgs(argv);
  const host = resolveHost(hostArg);
  const paths = dataPaths(dataDir(process.env));
  const log = createHookLog(paths.logs, process.env.CLAUDE_MEM_DEBUG === '1', `${hostArg || '-'} ${event || '-'}`);
  const run: Run = {
    host, event, log, adapter: undefined,
    fallback() {
      try {
        return this.adapter ? this.adapter.formatOutput(event, '') : '';
      } catch {
        return '';
      }
    },
  };
  // Fail open: nothing that goes wrong may reach the host as an error or a block.
  const onCrash = (err: unknown) => {
    process.exitCode = 0;
    log.problem(`uncaught: ${errorText(err)}`);
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  // A crash in a callback can leave the run unfinished with nothing left to wait for: the host
  // still gets its neutral answer (a synchronous write, as the process is leaving).
  process.on('exit', () => {
    process.exitCode = 0;
    if (printed) return;
    printed = true;
    const text = run.fallback();
    try {
      if (text) writeSync(1, `${text}\n`);
    } catch {
      // stdout closed by the host
    }
  });
  process.on('SIGTERM', onTerminate);
  armWatchdog(STDIN_DEADLINE_MS + 2 * CAPTURE_TIMEOUT_MS + HARD_LIMIT_SLACK_MS, run);

  let out: string;
  try {
    if (host) run.adapter = await getAdapter(host);
    out = await handle(run, paths);
  } catch (err) {
    log.problem(`hook failed open: ${errorText(err)}`);
    out = run.fallback();
  }
  await finish(out);
  // Whatever still holds the event loop (a stray socket or timer) must not keep the host waiting.
  setTimeout(() => process.exit(0), 200).unref();
}
