/**
 * The worker and the data directory: killed (-9), events left in the spool, a foreign process on
 * its port, loose permissions. Each is named with its fix; --fix restarts, drains, tightens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSpool } from '../../src/shared/spool.js';
import { cli, doctor, doctorHome, failing, find, installAll, stopWorker, type TestHome } from './helpers.js';

let h: TestHome;
const workerPid = () => (JSON.parse(readFileSync(join(h.dataDir, 'worker.json'), 'utf8')) as { pid: number }).pid;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(() => {
  h = doctorHome();
  installAll(h, 'claude-code');
}, 120_000);

afterAll(() => stopWorker(h));

describe('doctor on the worker', () => {
  it('names a killed worker, and --fix starts it again', async () => {
    const pid = workerPid();
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    expect(status).toBe(1);
    const identity = find(report, 'worker.identity');
    expect(identity.status).toBe('fail');
    expect(identity.evidence).toContain(`pid ${pid} is not running`);
    expect(identity.fix).toContain('claude-mem doctor --fix');
    // Nothing was started behind the user's back: no round trip ran.
    expect(find(report, 'claude-code.round-trip').status).toBe('warn');
    expect(readFileSync(join(h.dataDir, 'worker.json'), 'utf8')).toContain(`"pid": ${pid}`);

    const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
    expect(fixed.report.fixed).toEqual([expect.objectContaining({ id: 'worker.identity', ok: true })]);
    expect(failing(fixed.report)).toEqual([]);
    expect(find(fixed.report, 'claude-code.round-trip').status).toBe('ok');
    expect(workerPid()).not.toBe(pid);
  }, 90_000);

  it('names old events in the spool, and --fix drains them into memory', () => {
    stopWorker(h);
    const at = new Date(Date.now() - 2 * 3600_000).toISOString();
    const file = writeSpool(join(h.dataDir, 'spool'), [{
      host: 'claude-code', source: 'hook', kind: 'prompt', sessionId: 'spooled-session-1', cwd: h.home, prompt: 'remember the spooled prompt', at,
    }]);
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(file, old, old);
    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    expect(status).toBe(1);
    const spool = find(report, 'capture.spool');
    expect(spool.status).toBe('fail');
    expect(spool.evidence).toMatch(/1 file\(s\).*oldest 2 h: the worker is not running/);
    expect(spool.fix).toContain('--fix');

    const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
    expect(fixed.report.fixed.map((f) => [f.id, f.ok])).toEqual([['worker.identity', true], ['capture.spool', true]]);
    expect(find(fixed.report, 'capture.spool').status).toBe('ok');
    const search = cli(h.env, ['search', 'spooled prompt', '--json']);
    expect(search.stdout).toContain('spooled-session-1');
  }, 90_000);

  it('names a foreign process on the worker port (pid and command line)', async () => {
    const port = (JSON.parse(readFileSync(join(h.dataDir, 'settings.json'), 'utf8')) as { port: number }).port;
    stopWorker(h);
    const script = `require('node:http').createServer((q, s) => s.end('not claude-mem')).listen(${port}, '127.0.0.1', () => console.log('up'))`;
    const foreign: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise((r) => foreign.stdout!.once('data', r));
      const { status, report } = doctor(h, ['--ide', 'claude-code']);
      expect(status).toBe(1);
      const p = find(report, 'worker.port');
      expect(p.status).toBe('fail');
      expect(p.evidence).toContain(`pid ${foreign.pid} (`);
      expect(p.evidence).toContain('not claude-mem');
      expect(p.fix).toContain(`kill ${foreign.pid}`);
      expect(find(report, 'worker.identity').status).toBe('fail');
      // --fix does not stop someone else's process: the start fails and says why.
      const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
      expect(fixed.report.fixed).toEqual([expect.objectContaining({ id: 'worker.identity', ok: false })]);
      expect(fixed.report.fixed[0].action).toMatch(/in use by pid \d+/);
      expect(alive(foreign.pid!)).toBe(true);
    } finally {
      foreign.kill('SIGKILL');
    }
    expect(cli(h.env, ['start']).status).toBe(0);
  }, 90_000);

  it('counts dead letters with the newest reason, and shows each host\'s last event', async () => {
    writeFileSync(join(h.dataDir, 'spool', `${Date.now().toString(36)}-1-deadbeef.jsonl`), 'this is not an event\n');
    for (let i = 0; i < 100 && readdirSync(join(h.dataDir, 'spool')).length; i++) await new Promise((r) => setTimeout(r, 100));
    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    const dead = find(report, 'capture.dead-letters');
    expect(dead.status).toBe('warn');
    expect(dead.evidence).toMatch(/1 captured line\(s\) could not be stored.*newest .*spool line is not a JSON object/);
    // The prompt drained from the spool above is the host's last event.
    expect(find(report, 'claude-code.last-event').evidence).toMatch(/last event 2 h ago/);
    expect(status).toBe(0); // warnings only
  }, 60_000);

  it('names loose permissions, and --fix tightens them', () => {
    chmodSync(h.dataDir, 0o755);
    chmodSync(join(h.dataDir, 'worker.token'), 0o644);
    const { status, report } = doctor(h, ['--ide', 'claude-code']);
    expect(status).toBe(1);
    const perm = find(report, 'data.permissions');
    expect(perm.status).toBe('fail');
    expect(perm.evidence).toContain('worker.token is 0644: other users can read it');
    expect(perm.fix).toContain('chmod 0600');
    const fixed = doctor(h, ['--ide', 'claude-code', '--fix']);
    expect(fixed.report.fixed.every((f) => f.id === 'data.permissions' && f.ok)).toBe(true);
    expect(statSync(h.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(h.dataDir, 'worker.token')).mode & 0o777).toBe(0o600);
    expect(fixed.status).toBe(0);
  }, 60_000);
});
