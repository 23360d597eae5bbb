/**
 * Things --fix cannot mend, each in a HOME of its own: a corrupt database, and host configs
 * pointing at a claude-mem entry that was deleted. Doctor names them with the fix to run.
 */
import { openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST_BIN } from '../helpers/temp.js';
import { cli, doctor, doctorHome, failing, find, installAll, stopWorker, type TestHome } from './helpers.js';

const homes: TestHome[] = [];
afterAll(() => homes.forEach(stopWorker));

describe('doctor on what it cannot repair', () => {
  it('names a corrupt database, with the way out', () => {
    const h = doctorHome();
    homes.push(h);
    installAll(h, 'claude-code');
    stopWorker(h);
    const fd = openSync(join(h.dataDir, 'claude-mem.db'), 'r+');
    writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0); // the header: no longer a SQLite file
    closeSync(fd);
    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    expect(status).toBe(1);
    const db = find(report, 'data.database');
    expect(db.status).toBe('fail');
    expect(db.evidence).toMatch(/not a database|NOTADB|malformed/i);
    expect(db.fix).toMatch(/move .*claude-mem\.db aside/);
    expect(find(report, 'data.migrations').status).toBe('fail');
    // --fix tries the worker, which refuses the file and says why; the file is left as it is.
    const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
    expect(find(fixed.report, 'data.database').status).toBe('fail');
    expect(fixed.report.fixed).toEqual([expect.objectContaining({ id: 'worker.identity', ok: false })]);
    expect(fixed.report.fixed[0].action).toMatch(/corrupt|not a database/i);
  }, 90_000);

  it('names a deleted entry in every place that runs it', () => {
    const h = doctorHome();
    homes.push(h);
    installAll(h, 'claude-code,cursor');
    // What every host runs: the launcher in the data directory.
    const entry = join(h.dataDir, 'runtime', 'claude-mem.cjs');
    rmSync(entry);

    const { status, report } = doctor(h, ['--ide', 'claude-code', 'cursor']);
    expect(status).toBe(1);
    for (const host of ['claude-code', 'cursor']) {
      const paths = find(report, `${host}.paths`);
      expect(paths.status).toBe('fail');
      expect(paths.evidence).toContain(`${entry} does not exist`);
      // The fix is printed in the form that runs here (the shim needs the launcher, so: this CLI).
      expect(paths.fix).toContain(`'${DIST_BIN}' install --ide ${host}`);
      const trip = find(report, `${host}.round-trip`);
      expect(trip.status).toBe('fail');
      expect(trip.evidence).toMatch(/Cannot find module|failed \(exit 1\)/);
      expect(find(report, `${host}.mcp`).status).toBe('fail');
    }
    const runtime = find(report, 'runtime.entry');
    expect(runtime.status).toBe('fail');
    expect(runtime.evidence).toContain(`entry ${entry} is missing`);
    expect(find(report, 'runtime.program')).toMatchObject({ status: 'fail', evidence: `the launcher hosts run is missing (${entry})` });
    // Not drift: the files are as install wrote them.
    expect(failing(report).filter((id) => id.endsWith('.drift'))).toEqual([]);
    expect(cli(h.env, ['stop']).status).toBe(0);
  }, 120_000);
});
