import { readFileSync } from 'node:fs';

declare const __CLAUDE_MEM_VERSION__: string | undefined;

function readPackageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'claude-mem' && pkg.version) return pkg.version;
    } catch {
      // Try the next location (dist/ vs src/shared/).
    }
  }
  return '0.0.0';
}

/** The product version: injected by the build, read from package.json when running from source. */
export const VERSION: string = typeof __CLAUDE_MEM_VERSION__ === 'string' ? __CLAUDE_MEM_VERSION__ : readPackageVersion();
