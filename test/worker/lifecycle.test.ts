import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, cleanupWorkers, cli, cliAsync, foreignServer, newHome, waitFor, workerJson, workerPids, type Home } from './cli-helpers.js';

afterEach(cleanupWorkers);

function status(home: Home) {
  const r = cli(home, ['status', '--json']);
  return { code: r.status, doc: JSON.parse(r.stdout) };
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function fakeWorkerJson(home: Home, pid: number, port: number) {
  mkdirSync(home.dataDir, { recursive: true, mode: 0o700 });
  const info = { pid, port, version: '0.0.0', startedAt: new Date().toISOString(), dataDir: home.dataDir, instanceId: 'old-instance' };
  writeFileSync(join(home.dataDir, 'worker.json'), JSON.stringify(info));
}

describe('worker lifecycle', () => {
  it('start → status proves identity → stop', () => {
    const home = newHome();
    const start = cli(home, ['start']);
    expect(start.status, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/started \(pid \d+, port \d+/);
    const info = workerJson(home);
    expect(statSync(join(home.dataDir, 'worker.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(home.dataDir, 'worker.token')).mode & 0o777).toBe(0o600);
    expect(info.dataDir).toBe(home.dataDir);

    const st = status(home);
    expect(st.code).toBe(0);
    expect(st.doc.state).toBe('running');
    expect(st.doc.health.instanceId).toBe(info.instanceId);
    expect(st.doc.health.pid).toBe(info.pid);
    expect(st.doc.tokenAccepted).toBe(true);
    expect(st.doc.evidence.join('\n')).toMatch(/token accepted/);
    const human = cli(home, ['status']);
    expect(human.stdout).toContain('claude-mem worker: running');
    expect(human.stdout).not.toMatch(/\x1b\[/); // no colour outside a TTY

    // The port is persisted and kept.
    const settings = JSON.parse(readFileSync(join(home.dataDir, 'settings.json'), 'utf8'));
    expect(settings.port).toBe(info.port);

    const stop = cli(home, ['stop']);
    expect(stop.status, stop.stderr).toBe(0);
    expect(stop.stdout).toContain('stopped');
    expect(alive(info.pid)).toBe(false);
    expect(existsSync(join(home.dataDir, 'worker.json'))).toBe(false);
    const after = status(home);
    expect(after.code).toBe(1);
    expect(after.doc.state).toBe('stopped');
    expect(cli(home, ['stop']).stdout).toContain('not running');

    // A second start reuses the stored port.
    expect(cli(home, ['start']).status).toBe(0);
    expect(workerJson(home).port).toBe(info.port);
  });

  it('concurrent starts spawn exactly one worker', async () => {
    const home = newHome();
    const runs = await Promise.all(Array.from({ length: 5 }, () => cliAsync(home, ['start', '--json'])));
    for (const r of runs) expect(r.status, r.stderr).toBe(0);
    const pids = new Set(runs.map((r) => JSON.parse(r.stdout).status.worker.pid));
    expect(pids.size).toBe(1);
    await new Promise((r) => setTimeout(r, 500)); // any loser would show up meanwhile
    expect(workerPids(home.dataDir)).toEqual([...pids]);
    expect(existsSync(join(home.dataDir, 'worker.start.lock'))).toBe(false);
  });

  it('restart replaces the process', () => {
    const home = newHome();
    expect(cli(home, ['start']).status).toBe(0);
    const before = workerJson(home);
    const r = cli(home, ['restart', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.stop.result).toBe('stopped');
    expect(doc.start.result).toBe('started');
    const after = workerJson(home);
    expect(after.pid).not.toBe(before.pid);
    expect(after.instanceId).not.toBe(before.instanceId);
    expect(after.port).toBe(before.port);
    expect(alive(before.pid)).toBe(false);
    expect(status(home).doc.state).toBe('running');
  });

  it('SIGTERM: clean exit, worker.json removed', async () => {
    const home = newHome();
    expect(cli(home, ['start']).status).toBe(0);
    const { pid } = workerJson(home);
    process.kill(pid, 'SIGTERM');
    await waitFor(() => !alive(pid), 10_000, 'worker exit');
    expect(existsSync(join(home.dataDir, 'worker.json'))).toBe(false);
    const log = readFileSync(join(home.dataDir, 'logs', 'worker.log'), 'utf8');
    expect(log).toMatch(/shutting down.*SIGTERM/);
    expect(log).toContain('stopped');
    // The WAL was checkpointed on close.
    expect(existsSync(join(home.dataDir, 'claude-mem.db-wal'))).toBe(false);
  });

  it('a stale worker.json with a dead pid: status says stale, start replaces it', () => {
    const home = newHome();
    fakeWorkerJson(home, deadPid(), 1);
    const st = status(home);
    expect(st.code).toBe(1);
    expect(st.doc.state).toBe('stale');
    expect(st.doc.evidence.join('\n')).toMatch(/is not running/);
    const start = cli(home, ['start']);
    expect(start.status, start.stderr).toBe(0);
    expect(start.stdout).toContain('replaced a stale worker.json');
    expect(workerJson(home).instanceId).not.toBe('old-instance');
    expect(status(home).doc.state).toBe('running');
  });

  it('a stale worker.json naming an unrelated live process: stale, never signalled, replaced', async () => {
    const home = newHome();
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const gone = await foreignServer();
      gone.close(); // nothing listens on its port now
      const port = gone.port;
      await waitFor(() => !alive(gone.pid), 5000, 'server exit');
      fakeWorkerJson(home, sleeper.pid!, port);
      const st = status(home);
      expect(st.doc.state).toBe('stale');
      expect(st.doc.evidence.join('\n')).toContain('not our worker');
      const stop = cli(home, ['stop']);
      expect(stop.status).toBe(0);
      expect(alive(sleeper.pid!)).toBe(true);
      expect(cli(home, ['start']).status).toBe(0);
      expect(workerJson(home).pid).not.toBe(sleeper.pid);
      expect(alive(sleeper.pid!)).toBe(true);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a port taken by a foreign server: a clear error naming the port and pid, no silent move', async () => {
    const home = newHome();
    const foreign = await foreignServer();
    const port = foreign.port;
    try {
      mkdirSync(home.dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(join(home.dataDir, 'settings.json'), JSON.stringify({ port }));
      const start = cli(home, ['start', '--wait', '10000']);
      expect(start.status).toBe(1);
      expect(start.stderr).toContain(`port ${port}`);
      expect(start.stderr).toContain(`pid ${foreign.pid}`);
      expect(JSON.parse(readFileSync(join(home.dataDir, 'settings.json'), 'utf8')).port).toBe(port);
      const err = JSON.parse(readFileSync(join(home.dataDir, 'worker.error.json'), 'utf8'));
      expect(err).toMatchObject({ code: 'port_in_use', port, holderPid: foreign.pid });
      const st = status(home);
      expect(st.doc.state).toBe('stopped');
      expect(st.doc.lastError.code).toBe('port_in_use');
      expect(st.doc.portOwner.pid).toBe(foreign.pid);
      expect(workerPids(home.dataDir)).toEqual([]);

      // worker.json pointing at that port with a live pid: something else answers there.
      fakeWorkerJson(home, foreign.pid, port);
      const f = status(home);
      expect(f.doc.state).toBe('foreign');
      expect(f.code).toBe(1);
      expect(f.doc.evidence.join('\n')).toContain("without the worker's proof");
      expect(cli(home, ['stop']).status).toBe(1);
      expect(alive(foreign.pid)).toBe(true);
    } finally {
      foreign.close();
    }
  });

  it('a corrupt database: clear error, the file untouched', () => {
    const home = newHome();
    mkdirSync(home.dataDir, { recursive: true, mode: 0o700 });
    const db = join(home.dataDir, 'claude-mem.db');
    writeFileSync(db, Buffer.concat([Buffer.from('this is not a database\n'), Buffer.alloc(8192, 7)]));
    const hash = () => createHash('sha256').update(readFileSync(db)).digest('hex');
    const before = hash();
    const start = cli(home, ['start']);
    expect(start.status).toBe(1);
    expect(start.stderr).toMatch(/corrupt|not a (SQLite )?database/i);
    expect(start.stderr).toContain(db);
    expect(hash()).toBe(before);
    const err = JSON.parse(readFileSync(join(home.dataDir, 'worker.error.json'), 'utf8'));
    expect(err.code).toBe('store_corrupt');
    expect(readFileSync(join(home.dataDir, 'logs', 'worker.log'), 'utf8')).toContain('worker cannot start');
    const st = status(home);
    expect(st.doc.lastError.code).toBe('store_corrupt');
    expect(cli(home, ['status']).stdout).toContain('last start failed');
    expect(workerPids(home.dataDir)).toEqual([]);
  });

  it('a stale start lock is broken; a fresh one held by a live process is respected', async () => {
    const home = newHome();
    mkdirSync(home.dataDir, { recursive: true, mode: 0o700 });
    const lock = join(home.dataDir, 'worker.start.lock');
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), at: Date.now() }));
    expect(cli(home, ['start']).status).toBe(0);
    expect(cli(home, ['stop']).status).toBe(0);
    // Held by a live process (this test) right now: the starter waits, then reports a timeout.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, at: Date.now() }));
    const held = cli(home, ['start', '--wait', '300']);
    expect(held.status).toBe(1);
    expect(held.stderr).toContain('did not become healthy');
    expect(workerPids(home.dataDir)).toEqual([]);
    // Old enough to be stale although the pid lives.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, at: Date.now() - 11_000 }));
    expect(cli(home, ['start']).status).toBe(0);
  });
});
