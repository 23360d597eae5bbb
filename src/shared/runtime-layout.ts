/**
 * Where the installed program lives, inside the data directory (docs/install.md):
 *
 *   <data>/runtime/claude-mem.cjs    the launcher every host runs (a path that never changes)
 *   <data>/runtime/current           → the copy in use
 *   <data>/runtime/<version>-<key>/  a copy of the program and its dependencies
 *   <data>/runtime/missed-hooks.jsonl hook calls that found no program to run (doctor reads it)
 *   <data>/bin/claude-mem            a shell shim for people (`claude-mem` without PATH changes)
 *
 * Shared by the launcher bundle, install and doctor: this file imports node built-ins only.
 */
import { join } from 'node:path';

export const LAUNCHER_NAME = 'claude-mem.cjs';
export const CURRENT_NAME = 'current';
export const MISSED_NAME = 'missed-hooks.jsonl';

export interface RuntimeLayout {
  /** <data>/runtime */
  root: string;
  launcher: string;
  /** The `current` link; the program's entry is `<current>/dist/bin.js`. */
  current: string;
  missed: string;
  /** <data>/bin, and the shim in it. */
  binDir: string;
  shim: string;
}

export function runtimeLayout(dataRoot: string): RuntimeLayout {
  const root = join(dataRoot, 'runtime');
  const binDir = join(dataRoot, 'bin');
  return {
    root,
    launcher: join(root, LAUNCHER_NAME),
    current: join(root, CURRENT_NAME),
    missed: join(root, MISSED_NAME),
    binDir,
    shim: join(binDir, 'claude-mem'),
  };
}

/** One line of missed-hooks.jsonl. */
export interface MissedHook {
  at: string;
  host: string;
  event: string;
  /** Why nothing ran: the copy is gone, or it failed to load. */
  reason: string;
}
