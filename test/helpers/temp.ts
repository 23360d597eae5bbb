import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh directory under this test file's private root. */
export function tempDir(prefix = 'd'): string {
  const root = process.env.CLAUDE_MEM_TEST_ROOT;
  if (!root) throw new Error('test/helpers/setup.ts did not run');
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${prefix}-`));
}

/** An isolated HOME + data dir pair for tests that spawn processes. */
export function tempHome(): { home: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('home');
  const dataDir = join(home, '.claude-mem');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    CLAUDE_MEM_DATA_DIR: dataDir,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  };
  return { home, dataDir, env };
}

export const REPO_ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
export const DIST_BIN = join(REPO_ROOT, 'dist', 'bin.js');
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'hosts');
