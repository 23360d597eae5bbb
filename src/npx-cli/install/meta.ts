/**
 * Per-host facts in install-manifest.json (`hosts.<id>.meta`): the capture writer, recall path,
 * the version detected and when the host was installed. Doctor and uninstall read them back.
 * A re-install that changes nothing keeps the bytes (the first install time stays).
 */
import { existsSync } from 'node:fs';
import { loadManifest } from '../engine/index.js';
import { saveManifest, serializeManifest } from '../engine/manifest.js';
import type { WriterDecision } from './types.js';

export interface InstalledHostMeta {
  label: string;
  capture: string;
  recall: string;
  captureDetail: string[];
  overlaps: Array<{ with: string; resolution: string }>;
  versionDetected: string | null;
  installedAt: string;
  claudeMemVersion: string;
}

export function readHostMeta(manifestPath: string): Record<string, InstalledHostMeta | undefined> {
  if (!existsSync(manifestPath)) return {};
  const m = loadManifest(manifestPath);
  return Object.fromEntries(Object.entries(m.hosts).map(([h, e]) => [h, e.meta as InstalledHostMeta | undefined]));
}

/** Hosts the manifest knows (files or metadata). */
export function installedHosts(manifestPath: string): Set<string> {
  if (!existsSync(manifestPath)) return new Set();
  return new Set(Object.keys(loadManifest(manifestPath).hosts));
}

export interface MetaInput {
  label: string;
  decision: WriterDecision;
  version?: string;
  claudeMemVersion: string;
}

/** Writes the metadata of the hosts just installed; the file is rewritten only when something differs. */
export function writeHostMeta(manifestPath: string, hosts: ReadonlyMap<string, MetaInput>, now = new Date()): void {
  const m = loadManifest(manifestPath);
  const before = serializeManifest(m);
  for (const [host, inp] of hosts) {
    const entry = (m.hosts[host] ??= { files: {} });
    const old = entry.meta as InstalledHostMeta | undefined;
    const next: Omit<InstalledHostMeta, 'installedAt'> = {
      label: inp.label,
      capture: inp.decision.capture,
      recall: inp.decision.recall,
      captureDetail: inp.decision.detail,
      overlaps: inp.decision.overlaps,
      versionDetected: inp.version ?? null,
      claudeMemVersion: inp.claudeMemVersion,
    };
    entry.meta = { ...next, installedAt: old?.installedAt ?? now.toISOString() };
  }
  if (serializeManifest(m) !== before) saveManifest(manifestPath, m);
}

/** Drops hosts that have metadata but no files left (uninstall: the engine removes hosts with files itself). */
export function dropHosts(manifestPath: string, hosts: readonly string[]): void {
  if (!existsSync(manifestPath)) return;
  const m = loadManifest(manifestPath);
  const before = serializeManifest(m);
  for (const h of hosts) if (m.hosts[h] && Object.keys(m.hosts[h].files).length === 0) delete m.hosts[h];
  if (serializeManifest(m) !== before) saveManifest(manifestPath, m);
}
