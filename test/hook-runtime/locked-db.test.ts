// A database held locked by another process: the hook must still return at once, the event must
// survive (spool), and once the lock is gone it is stored exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, runHook, startWorker, waitFor } from './helpers.js';

const home = tempHome();
const env = hookEnv(home.env);

afterAll(() => cleanupWorker(env, home.dataDir));

describe('locked database', () => {
  it('keeps hooks fast and loses nothing while another process holds the write lock', async () => {
    ensureBuilt();
    startWorker(env);
    const locker = new Database(join(home.dataDir, 'claude-mem.db'));
    locker.pragma('busy_timeout = 0');
    locker.exec('BEGIN IMMEDIATE'); // holds the write lock: the worker's commits must wait
    const payload = claudePayload('005-PostToolUse.json', { session_id: 'locked-db-session', tool_use_id: 'toolu_locked_1', cwd: home.home });
    const run = await runHook(env, 'claude-code', 'PostToolUse', JSON.stringify(payload));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    // The worker could not commit within the hook's budget, so the hook kept the event itself.
    expect(countRows(home.dataDir, `SELECT count(*) AS n FROM events WHERE idem_key LIKE '%toolu_locked_1%'`)).toBe(0);
    locker.exec('COMMIT');
    locker.close();
    await waitFor(() => countRows(home.dataDir, `SELECT count(*) AS n FROM events WHERE idem_key LIKE '%toolu_locked_1%'`) === 1, 15_000);
    // Worker retry and spool drain both landed on the same key: one row, one observation.
    await new Promise((r) => setTimeout(r, 1500));
    expect(countRows(home.dataDir, `SELECT count(*) AS n FROM events WHERE idem_key LIKE '%toolu_locked_1%'`)).toBe(1);
    expect(countRows(home.dataDir, `SELECT count(*) AS n FROM observations WHERE tool_use_id = 'toolu_locked_1'`)).toBe(1);
  });
});
