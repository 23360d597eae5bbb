/**
 * Live round trip per hook host: run the exact command from the host's config (a shell string
 * through /bin/sh -c, an argv array directly) with a synthetic event in the host's dialect, see
 * it stored, and remove it afterwards (probe events are marked, and only they are deleted).
 */
import { randomBytes } from 'node:crypto';
import type { HostId } from '../../shared/hosts.js';
import type { HookCommand } from './hook-commands.js';
import type { DoctorContext } from './context.js';
import { PROBE_PREFIX, PROBES } from './probe-payloads.js';
import { runProcess, tail } from './spawn.js';
import { errorText } from './timebox.js';
import type { Check } from './types.js';

/** Markers hosts set for their hooks: inherited from a host running doctor, they would make the hook drop the probe as that host's. */
const HOST_MARKERS = /^(CLAUDECODE|CLAUDE_CODE_SESSION_ID|CLAUDE_CODE_ENTRYPOINT|COPILOT_(CLI|HOOK_DIR)|GEMINI_(SESSION_ID|CWD|CLI)|CURSOR_(TRACE_ID|VERSION)|GROK_(HOOK_EVENT|HOOK_NAME|SESSION_ID))$/;

/** The user's environment as a host passes it on, minus the markers of whatever runs doctor. */
export function probeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!HOST_MARKERS.test(k)) out[k] = v;
  return out;
}

export interface ProbeOutcome {
  check: Check;
  /** The probe session to remove (set once the command ran). */
  sessionId?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function hookRoundTrip(ctx: DoctorContext, host: HostId, commands: readonly HookCommand[]): Promise<ProbeOutcome | undefined> {
  const spec = PROBES[host];
  if (!spec) return undefined;
  const id = `${host}.round-trip`;
  const base = { id, area: 'hosts' as const, host };
  const cmd = commands.find((c) => c.event === spec.event);
  if (!cmd) {
    return { check: { ...base, status: 'fail', evidence: `no claude-mem hook for ${spec.event} in the host's files, so its tool calls are not captured`, fix: `see ${host}.drift (claude-mem doctor --fix --ide ${host} puts the hooks back)` } };
  }
  const st = await ctx.worker();
  if (st.state !== 'running') {
    return { check: { ...base, status: 'warn', evidence: 'not run: the worker is not running (see worker.identity); a probe would only reach the spool', fix: 'claude-mem doctor --fix' } };
  }
  const { store, error } = await ctx.store();
  if (!store) return { check: { ...base, status: 'warn', evidence: `not run: the database cannot be read to see the probe (${error})` } };

  const sessionId = `${PROBE_PREFIX}${randomBytes(6).toString('hex')}`;
  const deadline = Date.now() + ctx.probeTimeoutMs;
  const shown = cmd.shell ?? cmd.argv!.join(' ');
  const res = await runProcess({
    ...(cmd.shell !== undefined ? { shell: cmd.shell } : { argv: cmd.argv }),
    input: JSON.stringify(spec.payload(sessionId, ctx.paths.root)),
    env: probeEnv(ctx.env as NodeJS.ProcessEnv),
    cwd: ctx.workDir,
    timeoutMs: ctx.probeTimeoutMs,
  });
  const fix = `Run it by hand to see the error: echo '{}' | ${shown}`;
  if (res.timedOut) return { sessionId, check: { ...base, status: 'fail', evidence: `timed out: \`${shown}\` did not finish within ${ctx.probeTimeoutMs} ms`, fix } };
  if (res.error || res.code !== 0) {
    return {
      sessionId,
      check: { ...base, status: 'fail', evidence: `\`${shown}\` failed (exit ${res.code ?? res.signal ?? res.error}): ${tail(res.stderr) || res.error || 'no output'}`, fix: `claude-mem install --ide ${host} (writes a command that runs)` },
    };
  }
  // The worker answers before the hook exits; a slow one leaves the event in the spool for a moment.
  for (;;) {
    try {
      if (store.getSession(host, sessionId)) {
        return { sessionId, check: { ...base, status: 'ok', evidence: `${spec.event} hook ran in ${res.ms} ms and the probe event was stored (\`${shown}\`)` } };
      }
    } catch (e) {
      return { sessionId, check: { ...base, status: 'fail', evidence: `the probe ran but the database could not be read: ${errorText(e)}` } };
    }
    if (Date.now() >= deadline) break;
    await sleep(50);
  }
  return {
    sessionId,
    check: { ...base, status: 'fail', evidence: `timed out: the ${spec.event} hook exited 0 in ${res.ms} ms but its event was not stored within ${ctx.probeTimeoutMs} ms${res.stderr.trim() ? ` (stderr: ${tail(res.stderr)})` : ''}`, fix: 'CLAUDE_MEM_DEBUG=1 writes what the hook did to logs/; see logs/worker.log' },
  };
}

/**
 * Probe sessions an interrupted earlier run left behind (sessions.probe stays 1 only while every
 * event was a probe). Recent ones may belong to a doctor running right now: they are left to it.
 */
async function leftovers(db: string): Promise<string[]> {
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(db, { readonly: true, fileMustExist: true, timeout: 1000 });
  const before = new Date(Date.now() - 60_000).toISOString();
  try {
    return (conn.prepare('SELECT host_session_id AS sid FROM sessions WHERE probe = 1 AND host_session_id LIKE ? AND started_at < ?')
      .all(`${PROBE_PREFIX}%`, before) as { sid: string }[]).map((r) => r.sid);
  } finally {
    conn.close();
  }
}

/** Removes this run's probe events, and any left by an interrupted earlier run. */
export async function cleanupProbes(ctx: DoctorContext, sessionIds: readonly string[]): Promise<Check | undefined> {
  if (sessionIds.length === 0) return undefined;
  const id = 'capture.probe-cleanup';
  try {
    const all = [...new Set([...sessionIds, ...(await leftovers(ctx.paths.db).catch(() => []))])];
    const { openStore } = await import('../../store/sqlite-store.js');
    const store = openStore(ctx.paths.db, { busyTimeoutMs: 2000 });
    try {
      let removed = 0;
      for (const sid of all) removed += store.deleteProbeData(sid);
      return { id, area: 'capture', status: 'ok', evidence: `${all.length} probe session(s) removed (${removed} probe event(s))` };
    } finally {
      store.close();
    }
  } catch (e) {
    return { id, area: 'capture', status: 'warn', evidence: `probe events were not removed: ${errorText(e)}`, fix: 'Run claude-mem doctor again (it removes them).' };
  }
}
