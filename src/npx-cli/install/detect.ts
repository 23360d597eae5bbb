/** Runs every host's detect() side by side; one slow or broken host never holds up the others. */
import { homeDir, type Env } from '../../shared/paths.js';
import type { Detection, HostModule } from '../hosts/types.js';

export interface Detected {
  module: HostModule;
  detection: Detection;
  /** detect() threw or timed out: treated as not found, and said so. */
  error?: string;
}

const NOT_FOUND: Detection = { installed: false, evidence: [], facts: {} };

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function detectAll(modules: readonly HostModule[], env: Env, timeoutMs = 5000): Promise<Detected[]> {
  return Promise.all(
    modules.map(async (module) => {
      try {
        const detection = await withTimeout(Promise.resolve().then(() => module.detect(env)), timeoutMs, `detecting ${module.label}`);
        return { module, detection };
      } catch (e) {
        return { module, detection: NOT_FOUND, error: (e as Error)?.message ?? String(e) };
      }
    }),
  );
}

/** One line of evidence for the table and the summary. */
export function describeDetection(d: Detected, env: Env = process.env): string {
  if (d.error) return `detection failed: ${d.error}`;
  if (!d.detection.installed) return 'not found';
  const home = homeDir(env);
  const ev = d.detection.evidence.map((e) => (home && e.detail.startsWith(`${home}/`) ? `~${e.detail.slice(home.length)}` : e.detail)).join(', ');
  return [d.detection.version && `v${d.detection.version.replace(/^v/, '')}`, ev].filter(Boolean).join(' · ');
}
