/** Every command group registers itself here: one file per group, one line each. */
import type { Command } from 'commander';
import { register as install } from './install.js';
import { register as uninstall } from './uninstall.js';
import { register as worker } from './worker.js';
import { register as search } from './search.js';
import { register as mcp } from './mcp.js';
import { register as transcript } from './transcript.js';
import { register as doctor } from './doctor.js';
import { register as viewer } from './viewer.js';
import { register as sync } from './sync.js';
import { register as memory } from './memory.js';
import { register as importHistory } from './import-history.js';

export const commands: ReadonlyArray<(program: Command) => void> = [
  install,
  uninstall,
  worker,
  search,
  mcp,
  transcript,
  importHistory,
  doctor,
  viewer,
  sync,
  memory,
];
