/**
 * Every installed host, read from the install manifest (the same source of truth as install):
 * files parse and hold our entries, named paths exist, prerequisites hold, no double
 * registration, and live round trips through the hook command and the MCP server it names.
 */
import type { HostId } from '../../shared/hosts.js';
import { HOST_LABELS } from '../../shared/hosts.js';
import { loadHostModule } from '../hosts/modules.js';
import type { Detection } from '../hosts/types.js';
import { detectAll } from '../install/detect.js';
import { hostContext } from '../install/context.js';
import { findMcpLaunches, type McpLaunch } from './hook-commands.js';
import type { DoctorContext } from './context.js';
import { driftChecks, planHosts, recordedChanges } from './drift.js';
import { parseHostFile, recordedValues } from './files.js';
import { doubleRegistrationCheck, hookCommandsOf, moduleChecks, pathsCheck } from './host-checks.js';
import { mcpRoundTrips } from './mcp-probe.js';
import { hookRoundTrip, type ProbeOutcome } from './probe.js';
import { errorText } from './timebox.js';
import type { Check } from './types.js';

interface HostsOutcome {
  checks: Check[];
  /** Probe sessions to remove once every check is done. */
  probeSessions: string[];
}

/**
 * Only plugin hosts are detected again: their version decides which extension API the plugin
 * must speak (a prerequisite doctor checks). Other hosts' checks read files, and asking their
 * CLIs for `--version` would cost seconds; they get the version install recorded.
 */
async function detections(ctx: DoctorContext): Promise<Map<HostId, Detection>> {
  const out = new Map<HostId, Detection>();
  const recorded = (h: HostId) => ctx.meta(h)?.versionDetected ?? undefined;
  const again = ctx.hosts.filter((h) => (ctx.meta(h)?.capture ?? 'plugin') === 'plugin');
  for (const h of ctx.hosts) if (!again.includes(h)) out.set(h, { installed: true, evidence: [], ...(recorded(h) && { version: recorded(h) }), facts: {} });
  const found = await detectAll(await Promise.all(again.map(loadHostModule)), ctx.env, Math.min(1500, ctx.probeTimeoutMs));
  for (const d of found) {
    // A version detect() could not read in time falls back to the one install recorded.
    const v = recorded(d.module.id);
    out.set(d.module.id, d.detection.version || !v ? d.detection : { ...d.detection, version: v });
  }
  return out;
}

export async function hostChecks(ctx: DoctorContext): Promise<HostsOutcome> {
  const checks: Check[] = [];
  for (const h of ctx.notInstalled) {
    checks.push({ id: `${h}.installed`, area: 'hosts', host: h, status: 'warn', evidence: `${HOST_LABELS[h]} is not installed (install-manifest.json has no record of it)`, fix: `claude-mem install --ide ${h}` });
  }
  if (!ctx.manifest) return { checks, probeSessions: [] };
  if (ctx.hosts.length === 0 && ctx.notInstalled.length === 0) {
    return { checks: [{ id: 'hosts.installed', area: 'hosts', status: 'warn', evidence: 'no host is installed: nothing is captured', fix: 'claude-mem install' }], probeSessions: [] };
  }
  // Parsed once, up front, so the slow parts (round trips, drift plans, detection) all start together.
  const inputs = ctx.hosts.map((host) => {
    const changes = recordedChanges(ctx.manifest!, host);
    const docs = [...new Set(changes.map((c) => c.file))].map((path) => ({ path, doc: parseHostFile(path) }));
    return { host, changes, commands: hookCommandsOf(host, docs), launches: docs.flatMap((d) => findMcpLaunches(d.doc)) };
  });
  const mcp = mcpRoundTrips(ctx, new Map<HostId, McpLaunch[]>(inputs.map((i) => [i.host, i.launches])));
  const probes = inputs.map((i) => hookRoundTrip(ctx, i.host, i.commands).catch((e: unknown): ProbeOutcome => ({
    check: { id: `${i.host}.round-trip`, area: 'hosts', host: i.host, status: 'fail', evidence: `the round trip could not run: ${errorText(e)}` },
  })));
  const [states, detected] = await Promise.all([planHosts(ctx, ctx.hosts), detections(ctx)]);
  const probeSessions: string[] = [];
  const perHost = await Promise.all(inputs.map(async ({ host, changes, commands }, n): Promise<Check[]> => {
    const out: Check[] = [];
    const state = states.find((s) => s.host === host)!;
    if (state.plans.length) out.push(...driftChecks(state));
    else {
      const meta = ctx.meta(host);
      out.push({ id: `${host}.config`, area: 'hosts', host, status: 'ok', evidence: `no files of its own${meta ? ` (capture: ${meta.capture}, recall: ${meta.recall})` : ''}` });
    }
    if (changes.length) out.push(pathsCheck(host, recordedValues(changes)));
    const mod = await loadHostModule(host);
    const twice = doubleRegistrationCheck(host, commands, mod.hookReader);
    if (twice) out.push(twice);
    const ictx = hostContext(ctx.base, detected.get(host)!, ctx.hosts);
    const [own, trust, probe] = await Promise.all([
      moduleChecks(mod, ictx, ctx.probeTimeoutMs),
      commands.length ? mod.hooksCheck?.(ctx) : undefined,
      probes[n],
    ]);
    out.push(...own);
    if (trust) out.push(trust);
    if (probe) {
      out.push(probe.check);
      if (probe.sessionId) probeSessions.push(probe.sessionId);
    }
    return out;
  }));
  const mcpChecks = await mcp;
  ctx.hosts.forEach((host, i) => checks.push(...perHost[i], ...mcpChecks.filter((c) => c.host === host)));
  return { checks, probeSessions };
}
