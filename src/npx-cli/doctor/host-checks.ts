/**
 * Per-host checks from the files themselves: every path our entries name exists, our hook is
 * registered once per event, and the host's own prerequisites (module.checks, module.hooksCheck).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import type { HostModule, InstallContext } from '../hosts/types.js';
import { findHookCommands, namedPaths, type HookCommand } from './hook-commands.js';
import type { DoctorContext } from './context.js';
import { errorText, within } from './timebox.js';
import type { Check } from './types.js';

const reinstall = (host: HostId) => `claude-mem install --ide ${host} (writes the paths of this claude-mem again)`;

export function pathsCheck(host: HostId, values: readonly unknown[]): Check {
  const id = `${host}.paths`;
  const paths = namedPaths(values);
  const missing = paths.filter((p) => !existsSync(p));
  const notExec = paths.filter((p) => !missing.includes(p) && /\/node(js)?(\d+)?$/.test(p)).filter((p) => {
    try {
      accessSync(p, constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length || notExec.length) {
    return {
      id, area: 'hosts', host, status: 'fail',
      evidence: [...missing.map((p) => `${p} does not exist`), ...notExec.map((p) => `${p} is not executable`)].join('; '),
      fix: reinstall(host),
    };
  }
  return { id, area: 'hosts', host, status: 'ok', evidence: paths.length ? `all ${paths.length} path(s) named exist (node, entry, plugin files)` : 'names no paths' };
}

/**
 * The same host captured twice: our hook for one event registered more than once across the files
 * one program reads (`readerOf`; by default all of the host's files are read by one program).
 */
export function doubleRegistrationCheck(host: HostId, commands: readonly HookCommand[], readerOf: (file: string) => string = () => ''): Check | undefined {
  if (commands.length === 0) return undefined;
  const byEvent = new Map<string, HookCommand[]>();
  for (const c of commands) {
    const key = `${readerOf(c.file)}\u0000${c.event}`;
    byEvent.set(key, [...(byEvent.get(key) ?? []), c]);
  }
  const twice = [...byEvent].filter(([, list]) => list.length > 1);
  const id = `${host}.double-registration`;
  const events = new Set(commands.map((c) => c.event)).size;
  if (twice.length === 0) return { id, area: 'hosts', host, status: 'ok', evidence: `one claude-mem hook per event (${events} event(s))` };
  return {
    id, area: 'hosts', host, status: 'fail',
    evidence: twice.map(([, list]) => `${list[0].event} is registered ${list.length} times (${[...new Set(list.map((c) => c.file))].join(', ')})`).join('; ') + ': each event would be stored twice',
    fix: `Remove the extra claude-mem entries (keep one per event), or run claude-mem uninstall --ide ${host} && claude-mem install --ide ${host}.`,
  };
}

export function hookCommandsOf(host: HostId, docs: ReadonlyArray<{ path: string; doc: unknown }>): HookCommand[] {
  return docs.flatMap((d) => findHookCommands(d.doc, host, d.path));
}

/** The module's own prerequisite checks, time-boxed; a throw or a timeout is itself reported. */
export async function moduleChecks(mod: HostModule, ictx: InstallContext, timeoutMs: number): Promise<Check[]> {
  if (!mod.checks) return [];
  try {
    const list = await within(mod.checks(ictx), timeoutMs, `${mod.label} checks`);
    return list.map((c) => ({ ...c, area: 'hosts', host: mod.id }));
  } catch (e) {
    return [{ id: `${mod.id}.prerequisites`, area: 'hosts', host: mod.id, status: 'warn', evidence: `could not check: ${errorText(e)}` }];
  }
}
