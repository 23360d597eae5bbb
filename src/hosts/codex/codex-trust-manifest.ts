/**
 * Records the trust entries Codex wrote at our request in install-manifest.json, as if we had
 * written them: uninstall then removes them (or puts back what was there) like every other change.
 */
import { applyPlan, planChanges, type TomlSetChange } from '../../npx-cli/engine/index.js';
import type { TrustWrite } from './codex-trust.js';

export async function recordTrust(w: TrustWrite, opts: { manifestPath: string; backupsDir: string }): Promise<void> {
  const changes: TomlSetChange[] = w.entries.map((e) => ({
    kind: 'toml-set', file: w.configPath, host: 'codex', table: ['hooks', 'state', e.key], key: 'trusted_hash', value: e.hash,
  }));
  const plan = await planChanges(changes);
  for (const f of plan) {
    if (f.error) throw f.error;
    for (const r of f.records) {
      const e = w.entries.find((x) => x.key === (r.record.change as TomlSetChange).table[2])!;
      // The file already holds the value (Codex wrote it); what it replaced is what Codex held before.
      r.noop = true;
      r.record.previous = e.previous === undefined ? { present: false } : { present: true, value: e.previous };
      r.record.created = e.previous === undefined ? [['hooks', 'state', e.key]] : [];
    }
  }
  await applyPlan(plan, opts);
}
