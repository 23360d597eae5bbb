/** Host directories, with each host's own override variable honoured. */
import { join, resolve } from 'node:path';
import { expandHome, type Env } from '../../../shared/paths.js';

/** `$variable` when set (a leading `~` expanded against `home`), else `home/fallback`. */
export function envDir(env: Env, home: string, variable: string, fallback: string): string {
  const configured = env[variable];
  return configured ? resolve(expandHome(configured, { ...env, HOME: home })) : join(home, fallback);
}

/** XDG base directory (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`) or its documented default under HOME. */
export function xdgDir(env: Env, home: string, variable: 'XDG_CONFIG_HOME' | 'XDG_DATA_HOME'): string {
  const configured = env[variable];
  if (configured && configured.startsWith('/')) return resolve(configured);
  return variable === 'XDG_CONFIG_HOME' ? join(home, '.config') : join(home, '.local', 'share');
}
