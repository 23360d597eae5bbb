/**
 * A read-only database, as a user meets it: claude-mem.db loses its write bit, captures go on,
 * the user runs doctor, fixes the mode, runs doctor --fix, and every spooled event is stored once.
 *
 * Mode bits only stop writes for an ordinary user: root writes a 0400 file anyway, so under root
 * the whole scenario (worker, hooks, doctor, the user's chmod) runs as the unprivileged `nobody`
 * through setpriv, and the failure is the real one — SQLite opening the file without write access,
 * and a reader leaving a read-only -shm behind, as it does for a user. A test process that is not
 * root runs it as itself.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, tempHome } from '../helpers/temp.js';
import { ensureBuilt, hookEnv } from './helpers.js';

const ROOT = process.getuid?.() === 0;
const NOBODY = 65534;
const HAS_SETPRIV = spawnSync('setpriv', ['--version']).status === 0;

const h = tempHome();
const env = hookEnv(h.env);
const db = join(h.dataDir, 'claude-mem.db');

/** Runs a command as the test's unprivileged user. */
function asUser(cmd: string, args: string[], input?: string) {
  const argv = ROOT ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', cmd, ...args] : [cmd, ...args];
  const r = spawnSync(argv[0], argv.slice(1), { env, input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const cli = (...args: string[]) => asUser(process.execPath, [DIST_BIN, ...args]);
const json = (...args: string[]) => JSON.parse(cli(...args, '--json').stdout);
const hook = (id: string) => asUser(process.execPath, [DIST_BIN, 'hook', 'claude-code', 'PostToolUse'], JSON.stringify({
  session_id: 'sess-read-only', cwd: h.home, hook_event_name: 'PostToolUse', tool_name: 'Bash',
  tool_input: { command: `echo ${id}` }, tool_response: { stdout: `${id}\n`, stderr: '' }, tool_use_id: id,
}));
const spoolFiles = () => readdirSync(join(h.dataDir, 'spool')).filter((f) => f.endsWith('.jsonl'));
const mode = (p: string) => statSync(p).mode & 0o777;
interface Check {
  id: string;
  status: string;
  evidence: string;
  fix?: string;
}
const check = (doc: { checks: Check[] }, id: string): Check => {
  const c = doc.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};

beforeAll(() => {
  ensureBuilt();
  if (ROOT) {
    // nobody must reach its HOME inside this test file's private (0700) temporary root.
    chmodSync(process.env.CLAUDE_MEM_TEST_ROOT!, 0o711);
    chownSync(h.home, NOBODY, NOBODY);
  }
}, 180_000);

afterAll(() => {
  cli('stop');
});

describe.runIf(!ROOT || HAS_SETPRIV)('a read-only database', () => {
  it('spools, doctor names the read-only file, and after the fix doctor --fix repairs -shm and the spool drains once', async () => {
    expect(cli('start').code).toBe(0);
    expect(hook('toolu_ro_0').code).toBe(0);
    expect(cli('stop').code).toBe(0);

    // The database loses its write bit (a restore from a read-only copy, a careless chmod).
    expect(asUser('chmod', ['0400', db]).code).toBe(0);
    for (const id of ['toolu_ro_1', 'toolu_ro_2', 'toolu_ro_3']) {
      const r = hook(id);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    }
    expect(spoolFiles()).toHaveLength(3);

    const report = json('doctor');
    const writable = check(report, 'data.writable');
    expect(writable.status).toBe('fail');
    expect(writable.evidence).toContain(`${db} (database, mode 0400`);
    expect(writable.fix).toContain(`chmod u+w '${db}'`);
    expect(check(report, 'worker.identity').evidence).toContain('The database cannot be written');
    // Reading a 0400 database in WAL mode left a 0400 -shm behind, as SQLite gives companions the database's mode.
    expect(existsSync(`${db}-shm`)).toBe(true);
    expect(mode(`${db}-shm`)).toBe(0o400);

    // The user fixes the database's mode as told; -shm is still read-only, and doctor names it.
    expect(asUser('chmod', ['u+w', db]).code).toBe(0);
    const again = json('doctor');
    expect(check(again, 'data.writable').evidence).toContain(`${db}-shm (shared-memory index, mode 0400`);
    const fixed = json('doctor', '--fix');
    expect(fixed.fixed).toEqual(expect.arrayContaining([
      { id: 'data.writable', ok: true, action: `chmod 0600 ${db}-shm (was 0400)` },
      expect.objectContaining({ id: 'worker.identity', ok: true }),
      { id: 'capture.spool', ok: true, action: 'the worker drained the spool into memory' },
    ]));
    expect(mode(`${db}-shm`)).toBe(0o600);
    expect(spoolFiles()).toEqual([]);
    const st = json('status');
    expect(st.state).toBe('running');
    // Exactly once each: the first event and the three spooled ones, nothing dead-lettered.
    expect(st.stats.store.events).toBe(4);
    expect(st.stats.deadLetters).toBe(0);
    expect(st.stats.storage).toBeNull();
    expect(check(json('doctor'), 'data.writable').status).toBe('ok');
  }, 120_000);
});
