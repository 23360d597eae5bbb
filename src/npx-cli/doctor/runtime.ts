/** Runtime: the Node running claude-mem, the native SQLite binding, and the entry host configs run. */
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import coerce from 'semver/functions/coerce.js';
import { runtimeLayout } from '../../shared/runtime-layout.js';
import { VERSION } from '../../shared/version.js';
import { currentRuntime, isRuntimeCopy, readMissed } from '../install/runtime.js';
import type { DoctorContext } from './context.js';
import { runProcess, tail } from './spawn.js';
import { errorText } from './timebox.js';
import type { Check } from './types.js';
import type { RuntimeRef } from './hook-commands.js';

const MIN_NODE = 20;

export function nodeCheck(version = process.versions.node): Check {
  const ok = (coerce(version)?.major ?? 0) >= MIN_NODE;
  return {
    id: 'runtime.node', area: 'runtime', status: ok ? 'ok' : 'fail',
    evidence: `Node ${version} at ${process.execPath}${ok ? '' : ` (claude-mem needs ${MIN_NODE} or newer)`}`,
    ...(!ok && { fix: `Install Node ${MIN_NODE} or newer (https://nodejs.org), then run \`npx claude-mem install\` again.` }),
  };
}

/** An ABI mismatch is the usual failure after a Node upgrade: say so, with the one command that fixes it. */
export async function sqliteCheck(ctx: DoctorContext): Promise<Check> {
  const id = 'runtime.sqlite';
  try {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(':memory:');
    const v = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    db.close();
    return { id, area: 'runtime', status: 'ok', evidence: `better-sqlite3 loads (SQLite ${v})` };
  } catch (e) {
    const msg = errorText(e);
    const abi = /NODE_MODULE_VERSION|compiled against a different Node|ERR_DLOPEN_FAILED|invalid ELF|wrong ELF/i.test(msg);
    return {
      id, area: 'runtime', status: 'fail',
      evidence: abi
        ? `better-sqlite3 was built for another Node version than ${process.version} (ABI mismatch): ${msg.split('\n')[0]}`
        : `better-sqlite3 does not load: ${msg.split('\n')[0]}`,
      fix: isRuntimeCopy(ctx.base.packageRoot, runtimeLayout(ctx.paths.root))
        // The installed copy links its packages from where it was installed from: mend it there.
        ? `better-sqlite3 ${abi ? 'has to be rebuilt' : 'has to be installed again'} where you installed claude-mem from (\`npm ${abi ? 'rebuild' : 'install'} better-sqlite3\` in that folder); then run that copy's install again: it makes a new copy here`
        : abi ? `cd '${ctx.base.packageRoot}' && npm rebuild better-sqlite3` : `cd '${ctx.base.packageRoot}' && npm install better-sqlite3`,
    };
  }
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every node + entry pair host configs name must exist and answer `--version`. */
export async function entryCheck(ctx: DoctorContext, refs: readonly RuntimeRef[]): Promise<Check> {
  const id = 'runtime.entry';
  const reinstall = `claude-mem install --ide ${ctx.hosts.join(' ') || 'all'} (rewrites the host configs with this claude-mem: ${ctx.base.entryPath})`;
  const pairs = new Map<string, RuntimeRef>();
  for (const r of refs) pairs.set(`${r.node}\0${r.entry}`, r);
  if (pairs.size === 0) pairs.set('', { node: ctx.base.nodePath, entry: ctx.base.entryPath });
  const results = await Promise.all([...pairs.values()].map(async (r) => {
    if (!existsSync(r.node) || !executable(r.node)) return { r, ok: false, text: `node ${r.node} is missing or not executable` };
    if (!existsSync(r.entry)) return { r, ok: false, text: `entry ${r.entry} is missing` };
    const res = await runProcess({ argv: [r.node, r.entry, '--version'], env: { ...process.env, NO_COLOR: '1' } as NodeJS.ProcessEnv, cwd: ctx.workDir, timeoutMs: ctx.probeTimeoutMs });
    const out = res.stdout.trim();
    if (res.timedOut) return { r, ok: false, text: `${r.entry} --version timed out after ${ctx.probeTimeoutMs} ms` };
    if (res.code !== 0) return { r, ok: false, text: `${r.entry} --version exited ${res.code ?? res.signal}: ${tail(res.stderr) || res.error || ''}` };
    return { r, ok: true, text: `${r.node} ${r.entry} --version → ${out}`, version: out };
  }));
  const bad = results.filter((x) => !x.ok);
  if (bad.length) return { id, area: 'runtime', status: 'fail', evidence: bad.map((x) => x.text).join('; '), fix: reinstall };
  const other = results.filter((x) => x.version !== VERSION);
  if (other.length) {
    return {
      id, area: 'runtime', status: 'warn',
      evidence: `host configs run claude-mem ${other.map((x) => x.version).join(', ')} (${other.map((x) => x.r.entry).join(', ')}), this is ${VERSION}`,
      fix: reinstall,
    };
  }
  return { id, area: 'runtime', status: 'ok', evidence: results.map((x) => x.text).join('; ') };
}

/**
 * The program hosts run through the launcher (install/runtime.ts): present, and whether hook calls
 * found nothing to run (the launcher records each one it had to drop).
 */
export function launcherCheck(ctx: DoctorContext): Check | undefined {
  const id = 'runtime.program';
  const layout = runtimeLayout(ctx.paths.root);
  if (ctx.fresh && !existsSync(layout.launcher)) return undefined;
  const missed = readMissed(layout);
  const lost = missed ? `${missed.count} hook call(s) found no program to run and were not captured (from ${missed.first} to ${missed.last}, last: ${missed.lastCall}: ${missed.reason})` : '';
  const program = currentRuntime(layout);
  const again = `claude-mem install (copies this claude-mem back to ${layout.root}; hosts run it at once)`;
  if (!existsSync(layout.launcher) || !program || !existsSync(join(program, 'dist', 'bin.js'))) {
    const what = !existsSync(layout.launcher) ? `the launcher hosts run is missing (${layout.launcher})` : `the program the launcher starts is missing (${layout.current})`;
    return { id, area: 'runtime', status: 'fail', evidence: lost ? `${what}; ${lost}` : what, fix: again };
  }
  if (missed) return { id, area: 'runtime', status: 'warn', evidence: `${lost}; the program is in place again (${program})`, fix: 'Nothing to repair; the next install clears this record.' };
  return { id, area: 'runtime', status: 'ok', evidence: `hosts run ${layout.launcher} → ${program}` };
}
