/** `claude-mem doctor`: check, optionally repair what is safe, check again, report. */
import { VERSION } from '../../shared/version.js';
import { collect } from './collect.js';
import { createContext } from './context.js';
import { repair } from './fix.js';
import type { Check, DoctorOptions, DoctorReport, Fixed } from './types.js';

export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

export function isOk(checks: readonly Check[], strict: boolean): boolean {
  return checks.every((c) => c.status === 'ok' || (c.status === 'warn' && !strict));
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const timeout = opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  let ctx = createContext(opts.env, opts.hosts, timeout);
  let checks: Check[];
  let fixed: Fixed[] = [];
  try {
    checks = await collect(ctx);
    if (opts.fix) {
      fixed = await repair(ctx, checks);
      if (fixed.length) {
        // Everything is looked at again: the report shows the state after the repairs.
        ctx.close();
        ctx = createContext(opts.env, opts.hosts, timeout);
        checks = await collect(ctx);
      }
    }
  } finally {
    ctx.close();
  }
  return { version: VERSION, ok: isOk(checks, opts.strict), checks, fixed };
}
