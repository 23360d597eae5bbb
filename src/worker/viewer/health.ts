/**
 * Capture health as the viewer shows it: doctor's figures (each host's last real prompt, tool
 * result and session end, its recent sessions; the spool, dead letters, lost events, refused
 * writes) with the same plain explanation doctor gives when something is off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_LABELS, isHostId, type HostId } from '../../shared/hosts.js';
import { lossReason, readLosses } from '../../shared/losses.js';
import { problem as trafficProblem } from '../../npx-cli/doctor/traffic.js';
import type { StorageFailure } from '../storage-health.js';
import { say } from './say.js';
import type { HostTraffic } from '../../store/traffic.js';
import type { MemoryStore } from '../../store/types.js';

interface HostHealth {
  host: HostId;
  label: string;
  installed: boolean;
  lastEventAt: string | null;
  traffic: HostTraffic | null;
  status: 'ok' | 'quiet' | 'problem';
  /** One sentence on what the figures mean. */
  explanation: string;
  fix?: string;
}

export interface CaptureHealth {
  hosts: HostHealth[];
  spool: { files: number; bytes: number; explanation: string; status: 'ok' | 'problem' };
  deadLetters: { count: number; newest: { at: string; source: string; reason: string }[]; explanation: string };
  lost: { count: number; explanation: string } | null;
  storage: StorageFailure | null;
  /** What to run when writes are refused, and when no host is known. */
  storageFix: string;
  installHint: string;
  at: string;
}

interface HealthInputs {
  store: MemoryStore;
  dataDir: string;
  spoolDepth(): { files: number; bytes: number };
  storageState(): StorageFailure | null;
  now?: number;
}

function installedHosts(dataDir: string): HostId[] {
  try {
    const m = JSON.parse(readFileSync(join(dataDir, 'install-manifest.json'), 'utf8')) as { hosts?: Record<string, unknown> };
    return Object.keys(m.hosts ?? {}).filter(isHostId);
  } catch {
    return [];
  }
}

const ago = (at: string | null, now: number): string => {
  if (!at) return 'never';
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 129600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
};

function hostHealth(host: HostId, installed: boolean, last: string | null, t: HostTraffic | null, dataDir: string, now: number): HostHealth {
  const label = HOST_LABELS[host];
  const base = { host, label, installed, lastEventAt: last, traffic: t };
  if (!last && !t) {
    return { ...base, status: 'quiet', explanation: `${label} is installed but nothing was captured from it yet: use it once and its sessions appear here.` };
  }
  const p = t ? trafficProblem(host, label, t, now, join(dataDir, 'logs')) : undefined;
  if (p) return { ...base, status: 'problem', explanation: say(p.evidence), fix: p.fix ? say(p.fix) : undefined };
  const parts = t
    ? `last prompt ${ago(t.lastPromptAt, now)}, last tool result ${ago(t.lastToolResultAt, now)}, last session end ${ago(t.lastSessionEndAt ?? t.lastTurnEndAt, now)}`
    : `last event ${ago(last, now)}`;
  return { ...base, status: 'ok', explanation: `${label} is being captured: ${parts}.` };
}

export function captureHealth(i: HealthInputs): CaptureHealth {
  const now = i.now ?? Date.now();
  const stats = i.store.stats();
  const installed = installedHosts(i.dataDir);
  const seen = new Set<HostId>([...installed, ...(Object.keys(stats.lastEventAtByHost) as HostId[]), ...(Object.keys(stats.captureByHost) as HostId[])]);
  const hosts = [...seen].filter(isHostId).sort().map((h) =>
    hostHealth(h, installed.includes(h), stats.lastEventAtByHost[h] ?? null, stats.captureByHost[h] ?? null, i.dataDir, now));
  const spool = i.spoolDepth();
  const storage = i.storageState();
  const spoolText = spool.files === 0
    ? 'The spool is empty: every capture reached the database.'
    : storage
      ? `${spool.files} capture file(s) wait in the spool because the database refuses writes (${storage.code}); they are stored once that is fixed (claude-mem doctor names the cause).`
      : `${spool.files} capture file(s) wait in the spool; the worker stores them within seconds. If the number stays, run claude-mem doctor.`;
  const newest = i.store.listDeadLetters(5).map((d) => ({ at: d.createdAt ?? '', source: d.source, reason: d.reason }));
  const lost = readLosses(i.dataDir);
  return {
    hosts,
    spool: { ...spool, status: spool.files && storage ? 'problem' : 'ok', explanation: say(spoolText) },
    deadLetters: {
      count: stats.deadLetters, newest,
      explanation: stats.deadLetters === 0
        ? 'No dead letters: nothing captured was refused.'
        : `${stats.deadLetters} captured line(s) could not be stored and were kept aside; each reason says why (a transcript schema error is fixed in transcript-watch.json).`,
    },
    lost: lost
      ? { count: lost.lost, explanation: say(`${lost.lost} event(s) could be neither stored nor spooled (${lossReason(lost)}); they cannot be recovered. claude-mem doctor names the cause and clears this record once fixed.`) }
      : null,
    storage,
    storageFix: say('Run claude-mem doctor: it names the cause and the fix.'),
    installHint: say('No host is installed or heard from yet: run claude-mem install.'),
    at: new Date(now).toISOString(),
  };
}
