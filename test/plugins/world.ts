/** A plugin host's test world: a temporary HOME, an empty PATH directory, a data directory, and a stand-in claude-mem entry. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../src/shared/paths.js';
import { tempDir } from '../helpers/temp.js';

export interface PluginWorld {
  root: string;
  home: string;
  /** The only directory on PATH (tests put stand-in binaries there). */
  bin: string;
  env: Env;
  dataDir: string;
  /** The entry host configs name (install only needs it to exist). */
  entry: string;
}

export function pluginWorld(name: string, extra: Env = {}): PluginWorld {
  const root = tempDir(name);
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const entry = join(root, 'claude-mem', 'dist', 'bin.js');
  mkdirSync(join(root, 'claude-mem', 'dist'), { recursive: true });
  writeFileSync(entry, '');
  const dataDir = join(root, 'data');
  return { root, home, bin, entry, dataDir, env: { HOME: home, PATH: bin, CLAUDE_MEM_DATA_DIR: dataDir, ...extra } };
}
