/**
 * Project identity: the git remote (normalized, credentials stripped) or the git root, or the
 * directory itself outside a repository. Computed by reading `.git` files, never by spawning git,
 * because it runs for every captured event. Results are cached per cwd for a few seconds.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

interface ProjectInfo {
  /** The identity stored with every session: remote, else git root, else cwd. */
  project: string;
  /** The repository's working tree root, when inside one. */
  gitRoot: string | null;
  /** The normalized remote (e.g. github.com/acme/app), when one is configured. */
  remote: string | null;
}

const CACHE_MAX = 512;
const RECHECK_MS = 5_000;
const cache = new Map<string, { info: ProjectInfo; at: number }>();

/** The project identity for a working directory (cached). */
export function projectFor(cwd: string): string {
  return projectInfo(cwd).project;
}

export function projectInfo(cwd: string, now = Date.now()): ProjectInfo {
  const key = resolve(cwd);
  const hit = cache.get(key);
  if (hit && now - hit.at < RECHECK_MS) {
    // Refresh recency: Map keeps insertion order, so the oldest entry is first.
    cache.delete(key);
    cache.set(key, hit);
    return hit.info;
  }
  const info = computeProjectInfo(key);
  cache.delete(key);
  cache.set(key, { info, at: now });
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return info;
}

export function clearProjectCache(): void {
  cache.clear();
}

export function computeProjectInfo(cwd: string): ProjectInfo {
  const dir = resolve(cwd);
  const repo = findRepo(dir);
  if (!repo) return { project: stripTrailingSep(dir), gitRoot: null, remote: null };
  const remote = readRemote(join(repo.commonDir, 'config'));
  if (remote) return { project: remote, gitRoot: repo.root, remote };
  return { project: repo.mainRoot, gitRoot: repo.root, remote: null };
}

interface RepoLocation {
  root: string; // the working tree containing cwd
  commonDir: string; // where config lives (differs from the git dir for worktrees)
  mainRoot: string; // the main working tree, so worktrees without a remote share one identity
}

function findRepo(start: string): RepoLocation | null {
  let dir = start;
  for (;;) {
    const dotGit = join(dir, '.git');
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) return { root: dir, commonDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const loc = fromGitFile(dir, dotGit);
      if (loc) return loc;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** A `.git` file (worktree or submodule): `gitdir: <path>`, and maybe a `commondir` inside it. */
function fromGitFile(root: string, dotGit: string): RepoLocation | null {
  const text = readSmall(dotGit);
  const m = text && /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return null;
  const gitDir = isAbsolute(m[1]) ? m[1] : resolve(root, m[1]);
  const common = readSmall(join(gitDir, 'commondir'))?.trim();
  if (!common) return { root, commonDir: gitDir, mainRoot: root };
  const commonDir = isAbsolute(common) ? common : resolve(gitDir, common);
  const mainRoot = commonDir.endsWith('/.git') ? dirname(commonDir) : root;
  return { root, commonDir, mainRoot };
}

function readSmall(path: string): string | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 1024 * 1024) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The url of remote "origin", else of the first remote with a url. */
function readRemote(configPath: string): string | null {
  const text = readSmall(configPath);
  if (!text) return null;
  let section: string | null = null;
  const urls = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line);
    if (head) {
      section = head[1];
      continue;
    }
    if (line.startsWith('[')) {
      section = null;
      continue;
    }
    if (section === null || urls.has(section)) continue;
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (kv) urls.set(section, unquote(kv[1]));
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  return url ? normalizeRemoteUrl(url) : null;
}

function unquote(v: string): string {
  const s = v.replace(/\s+[#;].*$/, '').trim();
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

/**
 * `https://user:token@GitHub.com/acme/app.git`, `git@github.com:acme/app.git` and
 * `ssh://git@github.com:22/acme/app` all become `github.com/acme/app`. Credentials, ports,
 * schemes and the `.git` suffix never survive. Local paths stay paths.
 */
export function normalizeRemoteUrl(url: string): string | null {
  const u = url.trim();
  if (!u) return null;
  let host = '';
  let path: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(u);
  if (scheme) {
    const rest = scheme[2];
    if (scheme[1].toLowerCase() === 'file') {
      path = rest.replace(/^[^/]*/, '');
    } else {
      const slash = rest.indexOf('/');
      const authority = slash === -1 ? rest : rest.slice(0, slash);
      path = slash === -1 ? '' : rest.slice(slash);
      host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
    }
  } else {
    // scp-like `[user@]host:path`; a single letter before the colon is a Windows drive.
    const scp = /^(?:[^@/]+@)?([^:/]{2,}):(.*)$/.exec(u);
    if (scp) {
      host = scp[1];
      path = scp[2];
    } else {
      path = u;
    }
  }
  path = path.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  if (!host) return path || null;
  host = host.replace(/^\[|\]$/g, '').toLowerCase();
  path = path.replace(/^\/+/, '');
  return path ? `${host}/${path}` : host;
}

function stripTrailingSep(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}
