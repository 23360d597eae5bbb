/**
 * A temporary HOME with a one-commit git project and the minimal environment the host fixtures
 * were captured with (test/fixtures/hosts/README.md), plus helpers to run a host CLI in it
 * and `claude-mem install` for it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_BIN, tempDir } from '../../helpers/temp.js';
import { spawnCollect } from '../../helpers/spawn.js';

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
  return spawnCollect(bin, args, { cwd: w.project, env: w.env, timeoutMs });
}

/** `claude-mem install --yes --ide <host> --json` (it also starts the worker), as a user runs it. */
export async function claudeMemInstall(w: HostWorld, host: string): Promise<Record<string, any>> {
  const r = await runIn(w, process.execPath, [DIST_BIN, 'install', '--yes', '--ide', host, '--json'], 120_000);
  if (r.code !== 0) throw new Error(`claude-mem install --ide ${host} failed (${r.code}): ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, any>;
}

/** The JSON records of a host's line-delimited output (`--output-format stream-json` and the like); other lines are skipped. */
export function jsonLines(stdout: string): Record<string, any>[] {
  return stdout.split('\n').flatMap((line) => {
    if (!line.trim().startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, any>];
    } catch {
      return [];
    }
  });
}
