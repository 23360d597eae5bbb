// Loading the captured host payloads (test/fixtures/hosts) and running an adapter on them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookHostId } from '../../src/shared/hosts.js';
import type { Env } from '../../src/shared/paths.js';
import { getAdapter } from './loaded.js';
import type { AdapterResult, HookInput } from '../../src/hook/types.js';
import { FIXTURES } from '../helpers/temp.js';

export const NOW = '2026-11-30T11:00:00.000Z';
/** The fixtures were captured with HOME=/home/dev. */
export const FIXTURE_HOME = '/home/dev';

export interface HookFixture {
  file: string;
  /** Event as spelled in the file name (what the hook command line carried). */
  event: string;
  text: string;
  payload: Record<string, unknown>;
  env: Env;
}

export function hookFixtures(dir: string): HookFixture[] {
  const root = join(FIXTURES, dir);
  return readdirSync(root)
    .filter((f) => /^\d{3}-.+\.json$/.test(f) && !f.endsWith('.env.json'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const envFile = join(root, file.replace(/\.json$/, '.env.json'));
      return {
        file,
        event: file.replace(/^\d{3}-/, '').replace(/\.json$/, ''),
        text,
        payload: JSON.parse(text) as Record<string, unknown>,
        env: { HOME: FIXTURE_HOME, ...(JSON.parse(readFileSync(envFile, 'utf8')) as Env) },
      };
    });
}

export function fixture(dir: string, event: string): HookFixture {
  const f = hookFixtures(dir).find((x) => x.event === event);
  if (!f) throw new Error(`no ${event} fixture in ${dir}`);
  return f;
}

export function input(host: HookHostId, event: string, payload: unknown, env: Env = { HOME: FIXTURE_HOME }): HookInput {
  const obj = payload !== null && typeof payload === 'object' && !Array.isArray(payload)
    ? (payload as Record<string, unknown>) : undefined;
  return { host, event, payload: obj, rawStdin: typeof payload === 'string' ? payload : JSON.stringify(payload ?? ''), env, now: NOW };
}

export function run(host: HookHostId, event: string, payload: unknown, env?: Env): AdapterResult {
  return getAdapter(host).normalize(input(host, event, payload, env));
}

export function runFixture(host: HookHostId, f: HookFixture, env: Env = {}): AdapterResult {
  return getAdapter(host).normalize({ ...input(host, f.event, f.payload, { ...f.env, ...env }), rawStdin: f.text });
}
