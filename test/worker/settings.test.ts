import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/shared/paths.js';
import { candidatePort, ensurePort, ensureSettingsFile, loadSettings, portFree, updateSettings } from '../../src/worker/settings.js';
import { ensureToken } from '../../src/worker/lifecycle/token.js';
import { createFileLogger } from '../../src/worker/logger.js';
import { tempDir } from '../helpers/temp.js';
import { join } from 'node:path';

describe('settings', () => {
  it('fills defaults, keeps unknown keys, validates', () => {
    const paths = dataPaths(tempDir('data'));
    expect(loadSettings(paths)).toMatchObject({ contextBudgetMs: 1500, logLevel: 'info', maxBodyBytes: 1024 * 1024 });
    expect(ensureSettingsFile(paths)).toBe(true);
    expect(ensureSettingsFile(paths)).toBe(false);
    writeFileSync(paths.settings, JSON.stringify({ port: 23456, custom: { keep: true } }));
    updateSettings(paths, { logLevel: 'debug' });
    const raw = JSON.parse(readFileSync(paths.settings, 'utf8'));
    expect(raw).toEqual({ port: 23456, custom: { keep: true }, logLevel: 'debug' });
    expect(statSync(paths.settings).mode & 0o777).toBe(0o600);
    writeFileSync(paths.settings, JSON.stringify({ port: 'abc' }));
    expect(() => loadSettings(paths)).toThrow(/"port"/);
    writeFileSync(paths.settings, '{ nope');
    expect(() => loadSettings(paths)).toThrow(/not valid JSON/);
    // A bad file is reported, never rewritten.
    expect(readFileSync(paths.settings, 'utf8')).toBe('{ nope');
  });

  it('chooses a free port once and keeps it', async () => {
    const paths = dataPaths(tempDir('data'));
    const c = candidatePort(paths.root);
    expect(c).toBeGreaterThanOrEqual(20_000);
    expect(c).toBeLessThan(30_000);
    const port = await ensurePort(paths);
    expect(await portFree(port)).toBe(true);
    expect(await ensurePort(paths)).toBe(port);
    expect(loadSettings(paths).port).toBe(port);
  });

  it('creates a 0600 token once', () => {
    const paths = dataPaths(tempDir('data'));
    const a = ensureToken(paths);
    expect(a.created).toBe(true);
    expect(a.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(paths.token).mode & 0o777).toBe(0o600);
    expect(ensureToken(paths)).toEqual({ token: a.token, created: false });
  });
});

describe('logger', () => {
  it('rotates by size and keeps a bounded number of files', () => {
    const dir = tempDir('logs');
    const log = createFileLogger({ file: join(dir, 'worker.log'), maxBytes: 1000, keep: 3 });
    for (let i = 0; i < 200; i++) log.info(`line ${i} ${'x'.repeat(50)}`);
    log.debug('not written at info level');
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['worker.log', 'worker.log.1', 'worker.log.2', 'worker.log.3']);
    for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(1000);
    expect(readFileSync(join(dir, 'worker.log'), 'utf8')).toContain('line 199');
    expect(readFileSync(join(dir, 'worker.log'), 'utf8')).not.toContain('not written');
  });
});
