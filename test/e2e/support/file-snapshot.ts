/**
 * What install changed under a HOME, and whether uninstall took exactly that back. A snapshot maps
 * every file and folder (outside the excluded trees) to its bytes.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface FileChange {
  kind: 'created' | 'modified' | 'created-dir';
  /** Relative to the snapshot root. */
  path: string;
}

export interface Undone {
  /** Paths uninstall did not put back. */
  leftovers: string[];
  /** Files the host itself rewrote after install: accepted when no claude-mem entry is left. */
  hostTouched: string[];
}

export interface FileSnapshot {
  root: string;
  entries: Map<string, Buffer | 'dir'>;
  changesTo(after: FileSnapshot): FileChange[];
  undone(changes: FileChange[]): Undone;
}

function walk(root: string, dir: string, exclude: string[], out: Map<string, Buffer | 'dir'>): void {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (exclude.includes(full)) continue;
    const st = lstatSync(full);
    const rel = relative(root, full);
    if (st.isDirectory()) {
      out.set(rel, 'dir');
      walk(root, full, exclude, out);
    } else if (st.isFile()) {
      out.set(rel, readFileSync(full));
    }
  }
}

export function snapshotFiles(root: string, exclude: string[] = []): FileSnapshot {
  const entries = new Map<string, Buffer | 'dir'>();
  if (existsSync(root)) walk(root, root, exclude, entries);
  const snap: FileSnapshot = {
    root,
    entries,
    changesTo(after) {
      const changes: FileChange[] = [];
      for (const [path, v] of after.entries) {
        const was = entries.get(path);
        if (was === undefined) changes.push({ kind: v === 'dir' ? 'created-dir' : 'created', path });
        else if (v !== 'dir' && was !== 'dir' && !v.equals(was)) changes.push({ kind: 'modified', path });
      }
      return changes;
    },
    undone(changes) {
      const leftovers: string[] = [];
      const hostTouched: string[] = [];
      for (const c of changes) {
        const full = join(root, c.path);
        if (c.kind === 'created') {
          if (existsSync(full)) leftovers.push(`${c.path} (created by install, still there)`);
        } else if (c.kind === 'created-dir') {
          // The host may have put its own files in a folder install created: then it stays.
          if (existsSync(full) && readdirSync(full).length === 0) leftovers.push(`${c.path}/ (empty folder created by install)`);
        } else {
          const now = existsSync(full) ? readFileSync(full) : undefined;
          const was = entries.get(c.path) as Buffer;
          if (now === undefined) leftovers.push(`${c.path} (deleted)`);
          else if (!now.equals(was)) {
            if (now.toString('utf8').includes('claude-mem')) leftovers.push(`${c.path} (still mentions claude-mem)`);
            else hostTouched.push(`~/${c.path}`);
          }
        }
      }
      return { leftovers, hostTouched };
    },
  };
  return snap;
}
