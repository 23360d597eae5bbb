/**
 * Which host builds a Pi-family extension was proven on. The extension API of Pi and of its fork
 * OMP is young and changes between minor releases, so capture runs only on a release line that
 * was run end to end (or checked against the host's published types); elsewhere the extension
 * keeps its recall part and says why capture is off.
 */
import type { HostId } from '../../shared/hosts.js';

export interface HostApiSpec {
  host: HostId;
  label: string;
  /** npm package names of the host CLI (the running host is identified by its package.json). */
  packages: readonly string[];
  /** Exact versions the extension was run on end to end. */
  proven: readonly string[];
  /** Versions checked against the host's published extension types only (not run). */
  checked?: readonly string[];
  /** `major.minor` lines whose extension API is known: the lines of the proven versions. */
  lines: readonly string[];
}

/** `1.2.3-rc.1` → `1.2`; undefined for anything else. */
export function versionLine(version: string | undefined): string | undefined {
  const m = /^(\d+)\.(\d+)\.\d+/.exec(version ?? '');
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** "18.2.3 (types checked: 18.3.4)": for log lines and doctor. */
export function provenText(spec: HostApiSpec): string {
  return spec.checked?.length ? `${spec.proven.join(', ')}; types checked: ${spec.checked.join(', ')}` : spec.proven.join(', ');
}

export function apiKnown(spec: HostApiSpec, version: string | undefined): boolean {
  const line = versionLine(version);
  return line !== undefined && spec.lines.includes(line);
}
