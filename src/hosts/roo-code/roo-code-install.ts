/**
 * Roo Code and its community fork Zoo Code (VS Code extensions): MCP only, in the extension's
 * `settings/mcp_settings.json`. Every editor (VS Code, Insiders, VSCodium, Cursor, Windsurf)
 * keeps its own global storage; each one where the extension has run gets the entry.
 *
 * The storage folder moves when the editor's `User/settings.json` sets
 * `roo-cline.customStoragePath` (Zoo Code: `zoo-code.customStoragePath`): the extension then keeps
 * `settings/` there instead of in its global storage (RooCodeInc/Roo-Code `src/utils/storage.ts`,
 * `getStorageBasePath`). Only an absolute path is usable; the extension asks for one.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import { homeDir, type Env } from '../../shared/paths.js';
import { MCP_KEY } from '../../npx-cli/hosts/common/command.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { isDir } from '../../npx-cli/hosts/common/detect.js';
import { xdgDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import type { DetectEvidence, HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { rooCodeFacts } from './roo-code-facts.js';

/** Global-storage ids (publisher.name, lower case as VS Code writes them) and their settings prefix. */
const ROO_EXTENSIONS = [
  { id: 'rooveterinaryinc.roo-cline', setting: 'roo-cline' },
  { id: 'zoocodeorganization.zoo-code', setting: 'zoo-code' },
] as const;
const ROO_EXTENSION_IDS = ROO_EXTENSIONS.map((e) => e.id);
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'] as const;
const EXTENSION_DIRS = ['.vscode/extensions', '.vscode-insiders/extensions', '.vscode-oss/extensions', '.cursor/extensions', '.windsurf/extensions'];

/** One place the extension keeps its settings, in one editor. */
interface RooStorage {
  /** The folder holding `settings/mcp_settings.json`. */
  dir: string;
  /** The editor's settings.json, when its customStoragePath chose `dir`. */
  chosenBy?: string;
  /** A customStoragePath the extension cannot use as given (not absolute), left for the default. */
  ignored?: { file: string; value: string };
}

/** Editor user directories on Linux (XDG) and macOS. */
function userDirs(env: Env, home: string): string[] {
  const roots = [xdgDir(env, home, 'XDG_CONFIG_HOME'), join(home, 'Library', 'Application Support')];
  return roots.flatMap((root) => EDITORS.map((editor) => join(root, editor, 'User')));
}

/** `<setting>.customStoragePath` in an editor's settings.json (dotted key, or nested the way VS Code also reads). */
function customStoragePath(settingsFile: string, setting: string): string | undefined {
  const doc = asRecord(readJsonc(settingsFile));
  const value = doc?.[`${setting}.customStoragePath`] ?? asRecord(doc?.[setting])?.customStoragePath;
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function storageIn(userDir: string, ext: (typeof ROO_EXTENSIONS)[number]): RooStorage | undefined {
  const settingsFile = join(userDir, 'settings.json');
  const custom = customStoragePath(settingsFile, ext.setting);
  const fallback = join(userDir, 'globalStorage', ext.id);
  if (custom && isAbsolute(custom)) return { dir: resolve(custom), chosenBy: settingsFile };
  if (!isDir(fallback)) return undefined;
  return { dir: fallback, ...(custom && { ignored: { file: settingsFile, value: custom } }) };
}

/** Every folder Roo / Zoo Code keeps its settings in, one per folder, in a stable order. */
function rooStorages(env: Env, home = homeDir(env)): RooStorage[] {
  const out = new Map<string, RooStorage>();
  for (const u of userDirs(env, home)) {
    for (const ext of ROO_EXTENSIONS) {
      const s = storageIn(u, ext);
      if (s && !out.has(s.dir)) out.set(s.dir, s);
    }
  }
  return [...out.values()];
}

const rooMcpFile = (s: RooStorage) => join(s.dir, 'settings', 'mcp_settings.json');

function installedExtensions(home: string): string[] {
  const out: string[] = [];
  for (const rel of EXTENSION_DIRS) {
    const dir = join(home, rel);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) if (ROO_EXTENSION_IDS.some((id) => n.toLowerCase().startsWith(`${id}-`))) out.push(join(dir, n));
  }
  return out.sort();
}

const ignoredNote = (s: RooStorage) =>
  `${s.ignored!.file} sets customStoragePath to "${s.ignored!.value}", which is not an absolute path; claude-mem used the default storage ${s.dir}. Set an absolute path, then run \`claude-mem install --ide roo-code\` again.`;

function storageCheck(storages: readonly RooStorage[]): HostCheck {
  const missing = storages.filter((s) => !asRecord(asRecord(asRecord(readJsonc(rooMcpFile(s)))?.mcpServers)?.[MCP_KEY]));
  const ignored = storages.filter((s) => s.ignored);
  if (storages.length === 0) {
    return { id: 'roo-code.storage', status: 'warn', evidence: 'no Roo Code or Zoo Code storage found in any editor', fix: 'Open Roo Code (or Zoo Code) once, then run claude-mem install --ide roo-code.' };
  }
  if (missing.length) {
    return {
      id: 'roo-code.storage', status: 'fail',
      evidence: missing.map((s) => `${rooMcpFile(s)} has no claude-mem server${s.chosenBy ? ` (customStoragePath in ${s.chosenBy})` : ''}`).join('; '),
      fix: 'Run claude-mem install --ide roo-code (the extension reads its MCP servers from there now).',
    };
  }
  return {
    id: 'roo-code.storage', status: ignored.length ? 'warn' : 'ok',
    evidence: ignored.length ? ignored.map(ignoredNote).join(' ') : `claude-mem is in the MCP settings of every storage the extension reads (${storages.length})`,
  };
}

export const rooCode: HostModule = {
  ...hostIdentity(rooCodeFacts),
  async detect(env) {
    const home = homeDir(env);
    const storages = rooStorages(env, home);
    const evidence: DetectEvidence[] = [
      ...storages.map((s): DetectEvidence => (s.chosenBy ? { kind: 'file', detail: s.chosenBy } : { kind: 'dir', detail: s.dir })),
      ...installedExtensions(home).map((d): DetectEvidence => ({ kind: 'dir', detail: d })),
    ];
    return { installed: evidence.length > 0, evidence, facts: { storageDirs: storages.map((s) => s.dir).join('\n') || undefined } };
  },
  async plan(ctx: InstallContext) {
    const storages = rooStorages(ctx.env, ctx.home);
    if (storages.length === 0) {
      return {
        capture: 'none',
        recall: 'none',
        changes: [],
        nextSteps: ['Open Roo Code (or Zoo Code) once in your editor, then run `claude-mem install --ide roo-code` again.'],
        notes: ['No Roo Code or Zoo Code global storage was found, so there is no MCP settings file to add claude-mem to.'],
      };
    }
    return {
      capture: 'none',
      recall: 'mcp',
      changes: storages.map((s) => mcpServersChange(rooMcpFile(s), 'roo-code', ctx)),
      nextSteps: ['Reload the editor window so Roo Code / Zoo Code starts the claude-mem MCP server.'],
      notes: [
        'Roo Code has no hooks: it can search and save memories through MCP, but its sessions are not captured.',
        ...storages.filter((s) => s.chosenBy).map((s) => `${s.chosenBy} moves the extension's storage to ${s.dir} (customStoragePath): claude-mem is added there.`),
        ...storages.filter((s) => s.ignored).map(ignoredNote),
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    return [storageCheck(rooStorages(ctx.env, ctx.home))];
  },
};
