/**
 * Each host's own directories under HOME (with the host's override variables), used to confine
 * `transcriptPath` and to recognise which host wrote a payload.
 */
import { isAbsolute, resolve, sep } from 'node:path';
import { hostFacts, isHostId, type HookHostId } from '../../shared/hosts.js';
import type { Env } from '../../shared/paths.js';

/** The directories a host writes its own files (transcripts, sessions) into (its facts). */
export function hostDirs(host: HookHostId, env: Env): string[] {
  return isHostId(host) ? hostFacts(host).dirs?.(env) ?? [] : [];
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
