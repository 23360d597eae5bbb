/**
 * Which host is running this extension, and which release: the package.json of the CLI that
 * started the process (`process.argv[1]`, or Pi's own PI_PACKAGE_DIR override). Pi and OMP load
 * each other's extension folders in some setups, so the name matters as much as the version.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface HostPackage {
  name: string;
  version: string;
  dir: string;
}

/** Every CLI of the Pi family this extension may find itself in. */
const PI_FAMILY_PACKAGES = ['@mariozechner/pi-coding-agent', '@oh-my-pi/pi-coding-agent'] as const;

function packageAt(dir: string, names: readonly string[]): HostPackage | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    if (typeof pkg.name === 'string' && names.includes(pkg.name) && typeof pkg.version === 'string') {
      return { name: pkg.name, version: pkg.version, dir };
    }
  } catch {
    // Not a package root.
  }
  return undefined;
}

export function runningHostPackage(
  env: NodeJS.ProcessEnv = process.env,
  script: string | undefined = process.argv[1],
  names: readonly string[] = PI_FAMILY_PACKAGES,
): HostPackage | undefined {
  if (env.PI_PACKAGE_DIR) {
    const found = packageAt(env.PI_PACKAGE_DIR, names);
    if (found) return found;
  }
  if (!script) return undefined;
  let dir: string;
  try {
    dir = dirname(realpathSync(script));
  } catch {
    return undefined; // a compiled binary (Bun) has no script on disk
  }
  for (let i = 0; i < 6; i++) {
    const found = packageAt(dir, names);
    if (found) return found;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
