/**
 * A temporary HOME with a one-commit git project and the minimal environment the host fixtures
 * were captured with (../shared/fixtures/hosts/README.md), plus helpers to run a host CLI in it
 * and to install one host through its HostModule and the change engine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan, planChanges } from '../../../src/npx-cli/engine/index.js';
import type { HostModule, InstallContext } from '../../../src/npx-cli/hosts/types.js';
import { DIST_BIN, REPO_ROOT, tempDir } from '../../helpers/temp.js';

export interface HostWorld {
  home: string;
  project: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

export function makeHostWorld(prefix: string, extraEnv: NodeJS.ProcessEnv = {}, path = process.env.PATH): HostWorld {
  const home = tempDir(prefix);
  const project = join(home, 'projects', 'demo');
  mkdirSync(project, { recursive: true });
  const notes = '# Project notes\nThis is a scratch project used for the demo.\n';
  writeFileSync(join(project, 'README.md'), '# demo\n');
  writeFileSync(join(project, 'CLAUDE.md'), notes);
  writeFileSync(join(project, 'AGENTS.md'), notes);
  const git = { ...process.env, HOME: home, GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@example.invalid', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };
  for (const args of [['init', '-q'], ['add', '.'], ['commit', '-qm', 'init']]) execFileSync('git', args, { cwd: project, env: git });
  const dataDir = join(home, '.claude-mem');
  const env: NodeJS.ProcessEnv = {
    HOME: home, USER: 'dev', LOGNAME: 'dev', SHELL: '/bin/bash', TERM: 'dumb', LANG: 'C.UTF-8', PATH: path,
    NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', CI: '1',
    XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'), XDG_CACHE_HOME: join(home, '.cache'),
    CLAUDE_MEM_DATA_DIR: dataDir,
    ...extraEnv,
  };
  return { home, project, dataDir, env };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a host CLI in the project with stdin closed; async so in-process fake servers keep serving. */
export function runIn(w: HostWorld, bin: string, args: string[], timeoutMs = 180_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(bin, args, { cwd: w.project, env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Installs one host the way `claude-mem install` does: detect, plan, engine apply (manifest, backups). */
export async function installHost(mod: HostModule, w: HostWorld): Promise<InstallContext> {
  const detection = await mod.detect(w.env);
  const ctx: InstallContext = {
    env: w.env, home: w.home, dataDir: w.dataDir, nodePath: realpathSync(process.execPath), entryPath: DIST_BIN,
    packageRoot: REPO_ROOT, detection, selected: [mod.id],
  };
  const plan = await mod.plan(ctx);
  const files = await planChanges(plan.changes);
  const bad = files.find((f) => f.error);
  if (bad) throw bad.error;
  await applyPlan(files, { manifestPath: join(w.dataDir, 'install-manifest.json'), backupsDir: join(w.dataDir, 'backups') });
  return ctx;
}
