import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearProjectCache, computeProjectInfo, normalizeRemoteUrl, projectFor, projectInfo } from '../../src/worker/project.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { tempDir } from '../helpers/temp.js';
import { bash, dbPath } from './fixtures.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });

beforeEach(() => clearProjectCache());

describe('normalizeRemoteUrl', () => {
  it.each([
    ['https://github.com/acme/app.git', 'github.com/acme/app'],
    ['https://user:s3cr3t-token@GitHub.com/acme/app.git', 'github.com/acme/app'],
    ['https://x-access-token:ghs_abc@github.com/acme/app', 'github.com/acme/app'],
    ['git@github.com:acme/app.git', 'github.com/acme/app'],
    ['github.com:acme/app', 'github.com/acme/app'],
    ['ssh://git@github.com:22/acme/app.git', 'github.com/acme/app'],
    ['ssh://git@gitlab.example.com/group/sub/app.git/', 'gitlab.example.com/group/sub/app'],
    ['git://example.org/app.git', 'example.org/app'],
    ['http://[::1]:8080/repo.git', '::1/repo'],
    ['file:///srv/git/app.git', '/srv/git/app'],
    ['/srv/git/app.git', '/srv/git/app'],
    ['', null],
  ])('%s -> %s', (url, expected) => {
    expect(normalizeRemoteUrl(url)).toBe(expected);
  });
});

describe('projectFor', () => {
  it('uses the origin remote of a real repository, credentials stripped, from any subdirectory', () => {
    const repo = tempDir('repo');
    git(repo, 'init', '-q');
    git(repo, 'remote', 'add', 'upstream', 'https://github.com/other/fork.git');
    git(repo, 'remote', 'add', 'origin', 'https://deploy:ghp_SuperSecretToken123@github.com/Acme/App.git');
    const sub = join(repo, 'packages', 'web');
    mkdirSync(sub, { recursive: true });
    expect(projectFor(sub)).toBe('github.com/Acme/App');
    expect(projectFor(repo)).toBe('github.com/Acme/App');
    expect(projectInfo(sub)).toEqual({ project: 'github.com/Acme/App', gitRoot: repo, remote: 'github.com/Acme/App' });
    expect(JSON.stringify(projectInfo(sub))).not.toContain('SuperSecret');
  });

  it('falls back to the first remote when there is no origin', () => {
    const repo = tempDir('repo');
    git(repo, 'init', '-q');
    git(repo, 'remote', 'add', 'upstream', 'git@gitlab.com:team/tool.git');
    expect(projectFor(repo)).toBe('gitlab.com/team/tool');
  });

  it('uses the repository root without a remote, and the directory outside a repository', () => {
    const repo = tempDir('repo');
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'src'));
    expect(projectFor(join(repo, 'src'))).toBe(repo);
    const plain = tempDir('plain');
    expect(projectFor(plain + '/')).toBe(plain);
  });

  it('gives a worktree the identity of its main repository', () => {
    const main = tempDir('main');
    git(main, 'init', '-q');
    git(main, '-c', 'user.email=a@b.c', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const wt = join(tempDir('wt'), 'feature');
    git(main, 'worktree', 'add', '-q', wt);
    expect(projectFor(wt)).toBe(main);
    git(main, 'remote', 'add', 'origin', 'git@github.com:acme/app.git');
    clearProjectCache();
    expect(projectFor(wt)).toBe('github.com/acme/app');
    expect(computeProjectInfo(wt).gitRoot).toBe(wt);
  });

  it('reads a hand-written gitdir file and quoted config values', () => {
    const root = tempDir('manual');
    const gitDir = join(root, 'elsewhere.git');
    mkdirSync(gitDir);
    writeFileSync(join(gitDir, 'config'), '[core]\n\tbare = false\n[remote "origin"]\n\turl = "https://bitbucket.org/team/svc.git" ; comment\n');
    const work = join(root, 'work');
    mkdirSync(work);
    writeFileSync(join(work, '.git'), `gitdir: ../elsewhere.git\n`);
    expect(projectFor(work)).toBe('bitbucket.org/team/svc');
  });

  it('caches per directory, and notices a change after the re-check interval', () => {
    const repo = tempDir('repo');
    git(repo, 'init', '-q');
    const t0 = 1_000_000;
    expect(projectInfo(repo, t0).project).toBe(repo);
    git(repo, 'remote', 'add', 'origin', 'https://github.com/acme/late.git');
    expect(projectInfo(repo, t0 + 1000).project).toBe(repo);
    expect(projectInfo(repo, t0 + 60_000).project).toBe('github.com/acme/late');
  });

  it('is what the store records for sessions by default', () => {
    const repo = tempDir('repo');
    git(repo, 'init', '-q');
    git(repo, 'remote', 'add', 'origin', 'https://tok:en@github.com/acme/store-test.git');
    const s = openStore(dbPath());
    try {
      s.ingest([bash('ls', 'x', { cwd: join(repo), sessionId: 'proj' })]);
      expect(s.getSession('claude-code', 'proj')!.project).toBe('github.com/acme/store-test');
      expect(s.search({ query: '', project: 'github.com/acme/store-test' }).results).toHaveLength(1);
    } finally {
      s.close();
    }
  });
});
