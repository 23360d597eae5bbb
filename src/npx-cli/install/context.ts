/** Where claude-mem is installed (generated host configs name these absolute paths) and the install context per host. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostId } from '../../shared/hosts.js';
import { dataDir, homeDir, type Env } from '../../shared/paths.js';
import { runtimeLayout } from '../../shared/runtime-layout.js';
import type { Detection, InstallContext } from '../hosts/types.js';

/** The folder holding claude-mem's package.json: found from this file, in dist/ (bundled) or src/ (tests). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'claude-mem') return realpathSync(dir);
      } catch {
        // Not ours; keep looking upwards.
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the claude-mem package root');
    dir = up;
  }
}

/** What every host module's context shares, before detection and selection are known. */
export type BaseContext = Pick<InstallContext, 'env' | 'home' | 'dataDir' | 'nodePath' | 'entryPath' | 'packageRoot'>;

/**
 * Hosts run the launcher in the data directory, never this package's own dist/bin.js: that may sit
 * in npm's npx cache, which npm empties (install/runtime.ts). The package root is where install
 * copies the program and the plugin files from.
 */
export function baseContext(env: Env): BaseContext {
  const data = dataDir(env);
  return {
    env,
    home: homeDir(env),
    dataDir: data,
    // A real path: an nvm symlink may vanish, the file it points to is what runs.
    nodePath: realpathSync(process.execPath),
    entryPath: runtimeLayout(data).launcher,
    packageRoot: packageRoot(),
  };
}

export function hostContext(base: BaseContext, detection: Detection, selected: readonly HostId[]): InstallContext {
  return { ...base, detection, selected };
}
