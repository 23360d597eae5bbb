/**
 * Which host really ran this hook. Several hosts run other hosts' hook files (a host's facts say
 * whose: `runsHooksOf`), so the command line names the host whose file holds the hook, not
 * necessarily the caller. Each host's facts (src/hosts/<id>/<id>-facts.ts, `caller`) say how it
 * gives itself away; the rules, strongest evidence first:
 *  1. Payload dialect. The payload is written by the caller, never inherited, so a recognisable
 *     foreign dialect decides (`dialect`, then a transcript path inside a host's own directories,
 *     then `lateDialect`).
 *  2. The named host's own hook-runner marker tied to this very session (`sessionEnv` equal to the
 *     payload's session id): the command line is right.
 *  3. Any host's hook-runner marker (`runner`).
 *  4. The named host's general marker (`general`): the command line is right. These are inherited
 *     by child processes, so they only count here.
 *  5. Another host's general marker, when the named host showed none of its own.
 *  Otherwise the command line is trusted.
 *
 * Every host we can recognise has its own claude-mem writer (hooks, plugin or transcript watch),
 * so an event recognised as another host's is dropped (`owned by <host>`): that host's own hook
 * stores it once, under the right name.
 */
import { isAbsolute, resolve } from 'node:path';
import type { CallerFacts, RankedTest } from '../hosts/host-facts.js';
import { HOST_FACTS } from '../hosts/registry.js';
import type { HookHostId, HostId } from '../shared/hosts.js';
import type { Env } from '../shared/paths.js';
import { str, type Payload } from '../shared/values.js';
import { hostDirs, isInside } from './adapters/homes.js';

/** A recognised caller: a hook host (DeepSeek Harness included: it bridges, with its own writer). */
type CallerHost = HookHostId;

interface CallerIdentity {
  host: CallerHost;
  /** Set when the event belongs to another host's writer: `owned by <host>`. */
  drop?: string;
  /** What gave the caller away, for the debug log. */
  evidence?: string;
}

type Ranked<K extends keyof CallerFacts> = { host: HostId; test: NonNullable<CallerFacts[K]> };

/** Every host's test of one kind, lowest rank first. */
function ranked<K extends 'dialect' | 'lateDialect' | 'runner' | 'general'>(kind: K): Array<Ranked<K>> {
  const out: Array<Ranked<K>> = [];
  for (const f of HOST_FACTS) {
    const test = f.caller?.[kind];
    if (test) out.push({ host: f.id, test: test as NonNullable<CallerFacts[K]> });
  }
  return out.sort((a, b) => (a.test as RankedTest<never>).rank - (b.test as RankedTest<never>).rank);
}

const DIALECTS = ranked('dialect');
const LATE_DIALECTS = ranked('lateDialect');
const RUNNERS = ranked('runner');
const GENERAL = ranked('general');
const TRANSCRIPT_OWNERS = HOST_FACTS.filter((f) => f.caller?.transcriptRank !== undefined)
  .sort((a, b) => a.caller!.transcriptRank! - b.caller!.transcriptRank!).map((f) => f.id as HostId);
const SESSION_ENV = new Map(HOST_FACTS.flatMap((f) => (f.caller?.sessionEnv ? [[f.id as string, f.caller.sessionEnv]] : [])));

function transcriptOwner(p: Payload, env: Env): CallerHost | undefined {
  const t = str(p.transcript_path) ?? str(p.transcriptPath);
  if (!t || !isAbsolute(t)) return undefined;
  const path = resolve(t);
  return TRANSCRIPT_OWNERS.find((h) => isInside(path, hostDirs(h, env)));
}

/** The host whose payload dialect this is, when it is recognisable. */
function payloadDialect(p: Payload | undefined, env: Env): CallerHost | undefined {
  if (!p) return undefined;
  const event = str(p.hook_event_name);
  const early = DIALECTS.find((d) => d.test.test(p, event));
  if (early) return early.host;
  const owner = transcriptOwner(p, env);
  if (owner) return owner;
  return LATE_DIALECTS.find((d) => d.test.test(p, event))?.host;
}

function sessionOf(p: Payload | undefined): string | undefined {
  return p ? str(p.session_id) ?? str(p.sessionId) : undefined;
}

/** Markers a host's hook runner sets for this invocation (not inherited from an ancestor). */
function runnerMarker(env: Env, session: string | undefined): CallerHost | undefined {
  return RUNNERS.find((r) => r.test.test(env, session))?.host;
}

/** Markers a host sets in its whole process tree (so a child of that host inherits them). */
function generalMarkers(env: Env): CallerHost[] {
  return GENERAL.filter((g) => g.test.test(env)).map((g) => g.host);
}

function owned(host: CallerHost, evidence: string): CallerIdentity {
  return { host, drop: `owned by ${host}`, evidence };
}

export function identifyCaller(host: HookHostId, payload: Record<string, unknown> | undefined, env: Env): CallerIdentity {
  if (host === 'raw') return { host };
  const dialect = payloadDialect(payload, env);
  if (dialect) return dialect === host ? { host } : owned(dialect, 'payload dialect');
  const session = sessionOf(payload);
  const sessionEnv = SESSION_ENV.get(host);
  if (sessionEnv && !!session && env[sessionEnv] === session) return { host };
  const runner = runnerMarker(env, session);
  if (runner) return runner === host ? { host } : owned(runner, 'hook environment');
  const general = generalMarkers(env);
  if (general.length === 0 || general.includes(host)) return { host };
  return owned(general[0], 'environment');
}
