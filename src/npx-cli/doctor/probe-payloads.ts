/**
 * Synthetic tool-result payloads, one per hook host, in that host's own dialect (each host's facts,
 * `probe`), so the round trip takes the path a real event takes. `claude_mem_probe: true` marks
 * them: the hook stores them as probe events, removed afterwards.
 */
import type { ProbeSpec } from '../../hosts/host-facts.js';
import { HOST_FACTS } from '../../hosts/registry.js';
import type { HostId } from '../../shared/hosts.js';

export type { ProbeSpec };

export const PROBES: Partial<Record<HostId, ProbeSpec>> = Object.fromEntries(
  HOST_FACTS.flatMap((f) => (f.probe ? [[f.id, f.probe]] : [])),
);

export const PROBE_PREFIX = 'claude-mem-doctor-probe-';
