/**
 * What claude-mem knows about one host, as plain data: small enough for the hook bundle, read by
 * the hook, the installer, doctor, the observer and the transcript watcher alike. Each host's
 * facts live in src/hosts/<id>/<id>-facts.ts; src/hosts/registry.ts lists them, and every host id,
 * label and alias in the product comes from there.
 */
import { join, resolve } from 'node:path';
import { expandHome, homeDir, type Env } from '../shared/paths.js';
import type { CanonicalTool } from '../shared/canonical-tools.js';
import type { Payload } from '../shared/values.js';

/** A payload test, tried in `rank` order against every host's (lowest first). */
export interface RankedTest<Args extends unknown[]> {
  rank: number;
  test(...args: Args): boolean;
}

/**
 * How a hook call gives this host away as its caller (src/hook/caller.ts applies the rules, strongest
 * evidence first). Ranks order the tests across hosts: they matter where two hosts' tests overlap.
 */
export interface CallerFacts {
  /** Its payload dialect, recognisable from fields only it writes. */
  dialect?: RankedTest<[p: Payload, event: string | undefined]>;
  /** A transcript path inside its own directories gives it away (after the dialects). */
  transcriptRank?: number;
  /** Weaker dialect evidence, tried after the transcript path. */
  lateDialect?: RankedTest<[p: Payload, event: string | undefined]>;
  /** The variable its hook runner sets to this very session's id: the command line is right. */
  sessionEnv?: string;
  /** Markers its hook runner sets for this invocation only (not inherited). */
  runner?: RankedTest<[env: Env, session: string | undefined]>;
  /** Markers it sets in its whole process tree (inherited by children, so weaker). */
  general?: RankedTest<[env: Env]>;
}

/** A synthetic tool result in the host's own dialect, for doctor's round trip. */
export interface ProbeSpec {
  /** The event whose command is run (a capture-only event: no context is fetched). */
  event: string;
  payload(sessionId: string, cwd: string): Record<string, unknown>;
}

export interface HostFacts<Id extends string = string> {
  id: Id;
  label: string;
  /** Other names users may type (`--ide claude`). */
  aliases: readonly string[];
  /** True when `claude-mem hook <id>` reads a dialect of its own (src/hosts/<id>/<id>-hooks.ts). */
  hooks?: boolean;
  /** The directories it writes its own files into (transcripts, sessions), override variables honoured. */
  dirs?(env: Env): string[];
  caller?: CallerFacts;
  /** Other hosts whose hook files it also runs (so the hook drops its copy of their events). */
  runsHooksOf?: readonly string[];
  /** Hosts it runs as providers and is captured through (it has no capture of its own). */
  providers?: readonly string[];
  probe?: ProbeSpec;
  /** Why its sessions never end in claude-mem, when they legitimately do not (doctor's traffic check). */
  noSessionEnd?: string;
  /** Its own tool names where they differ from the shared table (src/shared/tool-names.ts). */
  tools?: Readonly<Record<string, CanonicalTool>>;
  /** Its extension tools in `mcp__<server>__<tool>` form, when it names them its own way. */
  mcpToolName?(raw: string): string | undefined;
}

/** Keeps the id's literal type, so host ids can be derived from the registry. */
export function defineHost<const Id extends string>(facts: HostFacts<Id>): HostFacts<Id> {
  return facts;
}

/** A host directory: its override variable (with ~ expanded), else `fallback` under HOME. */
export function dirFrom(env: Env, variable: string, fallback: string): string {
  const configured = env[variable];
  return resolve(configured ? expandHome(configured, env) : join(homeDir(env), fallback));
}

export const PROBE_COMMAND = 'echo claude-mem doctor probe';
export const PROBE_OUTPUT = 'claude-mem doctor probe';
/** Marks a probe payload: the hook stores it as a probe event, removed afterwards. */
export const PROBE_MARK = { claude_mem_probe: true } as const;
export const probeToolUseId = (sid: string): string => `${sid}-tool`;

/** A tool result in Claude Code's dialect (also what Codex reads, with its own additions). */
export const claudeLikeProbe = (event: string) => (sid: string, cwd: string): Record<string, unknown> => ({
  session_id: sid, cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: PROBE_COMMAND },
  tool_response: { stdout: PROBE_OUTPUT, exit_code: 0 }, tool_use_id: probeToolUseId(sid), ...PROBE_MARK,
});

/** The id, label and aliases a host module (src/hosts/<id>/<id>-install.ts) takes from the facts. */
export function hostIdentity<Id extends string>(f: HostFacts<Id>): { id: Id; label: string; aliases: readonly string[] } {
  return { id: f.id, label: f.label, aliases: f.aliases };
}
