/**
 * Our entries in host files that the install manifest does not record: the data directory was
 * deleted, or the manifest is older than some entries. Each host module says which files and
 * entries install would write; what is recognisably ours there becomes a record uninstall can
 * revert, exactly as if the manifest had kept it:
 *
 * - hook entries and `[[hooks]]` tables: found by our command (hosts/common/command.ts);
 * - a key named `claude-mem` (an MCP server, a named hook, an extension) that runs claude-mem;
 * - `[mcp_servers.claude-mem]`: our keys go, keys the user added stay (commented out);
 * - a managed text block: its markers;
 * - a whole file under a `claude-mem` name that mentions claude-mem.
 *
 * A plain setting install may also have changed (Codex `[features] hooks`, Cursor `version`) is
 * left alone: without the record, what it held before is unknown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import { sha256 } from '../engine/fs.js';
import { storedChange, storedFile, changeId, formatOf } from '../engine/editor.js';
import type { Change, ChangeRecord, Manifest, ManifestFile } from '../engine/index.js';
import { MCP_KEY } from '../hosts/common/command.js';
import { readJsonc, readToml, readYaml } from '../hosts/common/read.js';
import { getAt, isPlainObject } from '../engine/match.js';
import { hostContext } from './context.js';
import type { Prepared } from './install-plan.js';

/** A string that starts claude-mem: the launcher, a package's dist/bin.js, or the command itself. */
const RUNS_CLAUDE_MEM = /(?:\/claude-mem\.cjs|\/dist\/bin\.js|(?:^|[\s'"/])claude-mem)(?:$|[\s'"])/;

function runsClaudeMem(v: unknown): boolean {
  if (typeof v === 'string') return RUNS_CLAUDE_MEM.test(v);
  if (Array.isArray(v)) return v.some(runsClaudeMem);
  return isPlainObject(v) && Object.values(v).some(runsClaudeMem);
}

function current(c: Change): unknown {
  const format = formatOf(c.kind);
  const doc = format === 'json' ? readJsonc(c.file) : format === 'yaml' ? readYaml(c.file) : format === 'toml' ? readToml(c.file) : undefined;
  if (c.kind === 'json-set' || c.kind === 'yaml-set') return getAt(doc, c.path);
  if (c.kind === 'toml-table') return getAt(doc, c.table);
  return undefined;
}

const record = (c: Change, created: string[][] = []): ChangeRecord => ({ id: changeId(c), change: storedChange(c), previous: { present: false }, created });

/** The record that removes what is ours of `c` from the file as it is now, or undefined (nothing of ours, or not ours to judge). */
function recordFor(c: Change): ChangeRecord | undefined {
  switch (c.kind) {
    case 'json-array-upsert':
      // The arrays (and `hooks` above them) go too when nothing else is left in them.
      return record(c, c.path.map((_, i) => c.path.slice(0, i + 1)));
    case 'toml-array-entry':
    case 'text-block':
      return record(c);
    case 'json-set':
    case 'yaml-set': {
      const value = current(c);
      // Containers above it (`mcpServers`) go too when nothing else is left in them.
      return c.path.includes(MCP_KEY) && runsClaudeMem(value) ? record({ ...c, value }, c.path.slice(0, -1).map((_, i) => c.path.slice(0, i + 1))) : undefined;
    }
    case 'toml-table': {
      const value = current(c);
      if (!isPlainObject(value) || !runsClaudeMem(value)) return undefined;
      // Our keys as they are now (an older install wrote other paths); the user's are kept.
      const ours = Object.fromEntries(Object.keys(c.value).filter((k) => k in value).map((k) => [k, value[k]]));
      return record({ ...c, value: ours as typeof c.value });
    }
    case 'file':
      return undefined; // see wholeFile
    case 'toml-set':
      return undefined;
  }
}

/** Folders of ours the file sits in (`…/claude-mem/hooks`), removed when empty. */
function ourDirs(file: string): string[] {
  const dirs: string[] = [];
  for (let d = dirname(file); d.split(sep).some((part) => part.includes('claude-mem')); d = dirname(d)) dirs.unshift(d);
  return dirs;
}

function wholeFile(c: Change): ManifestFile | undefined {
  if (c.kind !== 'file' || !c.file.split(sep).some((part) => part.includes('claude-mem')) || !existsSync(c.file)) return undefined;
  const text = readFileSync(c.file, 'utf8');
  if (!text.includes('claude-mem')) return undefined;
  const rec: ChangeRecord = { id: 'file', change: storedFile(text), previous: { present: false }, created: [] };
  return { createdByUs: true, createdDirs: ourDirs(c.file), hashBefore: null, hashAfter: sha256(text), state: 'applied', changes: [rec] };
}

/** A setting install writes that holds that value now: said, and left (its earlier value is unknown). */
function leftAlone(c: Change): string | undefined {
  if (c.kind === 'toml-set') {
    const v = getAt(readToml(c.file), [...c.table, c.key]);
    return v === c.value ? `${c.table.length ? `[${c.table.join('.')}] ` : ''}${c.key} = ${JSON.stringify(c.value)} in ${c.file}` : undefined;
  }
  if (c.kind === 'json-set' && !c.path.includes(MCP_KEY)) {
    const v = getAt(readJsonc(c.file), c.path);
    return JSON.stringify(v) === JSON.stringify(c.value) ? `"${c.path.join('.')}": ${JSON.stringify(c.value)} in ${c.file}` : undefined;
  }
  return undefined;
}

export interface Discovered {
  manifest: Manifest;
  /** Hosts whose plan could not be made (nothing of theirs was looked for). */
  errors: Map<HostId, string>;
  /** Settings install may have made, left as they are. */
  left: Map<HostId, string[]>;
}

/** Records for what is ours in `hosts`' files that `recorded` does not cover (a file of a host it lists is left to it). */
export async function discoverUnrecorded(prepared: Prepared, hosts: readonly HostId[], recorded: Manifest): Promise<Discovered> {
  const manifest: Manifest = { schemaVersion: 1, hosts: {} };
  const errors = new Map<HostId, string>();
  const left = new Map<HostId, string[]>();
  for (const id of hosts) {
    const d = prepared.detected.find((x) => x.module.id === id);
    if (!d) continue;
    let changes: Change[];
    try {
      changes = (await d.module.plan(hostContext(prepared.base, d.detection, [id]))).changes.map((c) => ({ ...c, host: id }));
    } catch (e) {
      errors.set(id, (e as Error)?.message ?? String(e));
      continue;
    }
    const files: Record<string, ManifestFile> = {};
    for (const c of changes) {
      if (recorded.hosts[id]?.files[c.file] || !existsSync(c.file)) continue;
      if (c.kind === 'file') {
        const f = wholeFile(c);
        if (f) files[c.file] = f;
        continue;
      }
      const r = recordFor(c);
      if (!r) {
        const setting = leftAlone(c);
        if (setting) left.set(id, [...(left.get(id) ?? []), setting]);
        continue;
      }
      const entry = (files[c.file] ??= { createdByUs: false, createdDirs: [], hashBefore: null, hashAfter: null, state: 'applied', changes: [] });
      entry.changes.push(r);
    }
    if (Object.keys(files).length) manifest.hosts[id] = { files };
  }
  return { manifest, errors, left };
}
