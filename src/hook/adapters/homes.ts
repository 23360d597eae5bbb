/**
 * Each host's own directories under HOME (with the host's override variables), used to confine
 * `transcriptPath` and to recognise which host wrote a payload.
 */
import { isAbsolute, join, resolve, sep } from 'node:path';
import type { HookHostId } from '../../shared/hosts.js';
import { expandHome, homeDir, type Env } from '../../shared/paths.js';

/** A host directory: its override variable (with ~ expanded), else `fallback` under HOME. */
export function dirFrom(env: Env, variable: string, fallback: string): string {
  const configured = env[variable];
  return resolve(configured ? expandHome(configured, env) : join(homeDir(env), fallback));
}

/** The directories a host writes its own files (transcripts, sessions) into. */
export function hostDirs(host: HookHostId | 'dsh', env: Env): string[] {
  const home = homeDir(env);
  switch (host) {
    case 'claude-code': return [dirFrom(env, 'CLAUDE_CONFIG_DIR', '.claude')];
    case 'codex': return [dirFrom(env, 'CODEX_HOME', '.codex')];
    case 'cursor': return [join(home, '.cursor')];
    case 'windsurf': return [join(home, '.codeium', 'windsurf'), join(home, '.windsurf')];
    case 'kimi': return [dirFrom(env, 'KIMI_SHARE_DIR', '.kimi'), dirFrom(env, 'KIMI_CODE_HOME', '.kimi-code')];
    case 'antigravity': return [join(home, '.gemini')];
    case 'gemini': return [env.GEMINI_CLI_HOME ? join(resolve(expandHome(env.GEMINI_CLI_HOME, env)), '.gemini') : join(home, '.gemini')];
    case 'grok': return [dirFrom(env, 'GROK_HOME', '.grok')];
    case 'copilot': return [dirFrom(env, 'COPILOT_HOME', '.copilot')];
    case 'goose': return [
      join(env.XDG_DATA_HOME ? resolve(env.XDG_DATA_HOME) : join(home, '.local', 'share'), 'goose'),
      join(env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(home, '.config'), 'goose'),
    ];
    case 'dsh': return [dirFrom(env, 'DSH_HOME', '.dsh')];
    default: return [];
  }
}

/** True when `path` (already resolved) lies strictly inside one of `dirs`. */
export function isInside(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path.startsWith(d.endsWith(sep) ? d : d + sep));
}

/**
 * The transcript path when it is absolute and, once `..` is resolved, inside the host's own
 * directories; otherwise undefined and a note says why.
 */
export function confineTranscript(value: unknown, host: HookHostId, env: Env, notes: string[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.includes('\0') || !isAbsolute(value)) {
    notes.push('transcriptPath removed: not an absolute path');
    return undefined;
  }
  const resolved = resolve(value);
  if (!isInside(resolved, hostDirs(host, env))) {
    notes.push(`transcriptPath removed: outside ${host}'s own directory`);
    return undefined;
  }
  return resolved;
}
