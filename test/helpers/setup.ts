// Runs before every test file: a private temporary HOME and data directory, so no test
// can read or write the real home directory.
import { mkdtempSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'cm-test-')));
const home = join(root, 'home');
process.env.HOME = home;
process.env.USERPROFILE = home;
process.env.CLAUDE_MEM_DATA_DIR = join(home, '.claude-mem');
process.env.XDG_CONFIG_HOME = join(home, '.config');
process.env.XDG_DATA_HOME = join(home, '.local', 'share');
process.env.CLAUDE_MEM_TEST_ROOT = root;
for (const v of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'KIMI_CODE_HOME', 'KIMI_SHARE_DIR', 'PI_CODING_AGENT_DIR', 'DSH_HOME',
  'OPENCLAW_STATE_DIR', 'GROK_HOME', 'COPILOT_HOME', 'GEMINI_CLI_HOME', 'CURSOR_VERSION', 'GROK_HOOK_EVENT']) {
  delete process.env[v];
}
// libpq's variables (PGHOST, PGPASSWORD, PGSSLMODE, PGSERVICEFILE, ...) would steer the PostgreSQL
// client to the machine's servers; PG_BIN only says where the test server's binaries are.
for (const v of Object.keys(process.env)) {
  if (v.startsWith('PG') && v !== 'PG_BIN') delete process.env[v];
}

afterAll(() => {
  if (!process.env.CLAUDE_MEM_KEEP_TEST_DIRS) rmSync(root, { recursive: true, force: true });
});
