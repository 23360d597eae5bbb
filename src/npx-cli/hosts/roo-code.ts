/**
 * Roo Code and its community fork Zoo Code (VS Code extensions): MCP only, in the extension's
 * global storage `settings/mcp_settings.json`. Every editor (VS Code, Insiders, VSCodium, Cursor,
 * Windsurf) keeps its own global storage; each one where the extension has run gets the entry.
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from './common/changes.js';
import { isDir } from './common/detect.js';
import { xdgDir } from './common/paths.js';
import type { DetectEvidence, HostModule, InstallContext } from './types.js';

/** Global-storage ids (publisher.name, lower case as VS Code writes them). */
export const ROO_EXTENSION_IDS = ['rooveterinaryinc.roo-cline', 'zoocodeorganization.zoo-code'] as const;
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'] as const;
const EXTENSION_DIRS = ['.vscode/extensions', '.vscode-insiders/extensions', '.vscode-oss/extensions', '.cursor/extensions', '.windsurf/extensions'];

/** Editor user directories on Linux (XDG) and macOS. */
function userDirs(env: Env, home: string): string[] {
  const roots = [xdgDir(env, home, 'XDG_CONFIG_HOME'), join(home, 'Library', 'Application Support')];
  return roots.flatMap((root) => EDITORS.map((editor) => join(root, editor, 'User')));
}

/** Global-storage directories of Roo / Zoo Code that exist, in a stable order. */
export function rooStorageDirs(env: Env, home = homeDir(env)): string[] {
  return userDirs(env, home).flatMap((u) => ROO_EXTENSION_IDS.map((id) => join(u, 'globalStorage', id))).filter(isDir);
}

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

export const rooCode: HostModule = {
  id: 'roo-code',
  label: 'Roo Code',
  aliases: ['zoo-code'],
  async detect(env) {
    const home = homeDir(env);
    const storage = rooStorageDirs(env, home);
    const evidence: DetectEvidence[] = [
      ...storage.map((d): DetectEvidence => ({ kind: 'dir', detail: d })),
      ...installedExtensions(home).map((d): DetectEvidence => ({ kind: 'dir', detail: d })),
    ];
    return { installed: evidence.length > 0, evidence, facts: { storageDirs: storage.join('\n') || undefined } };
  },
  async plan(ctx: InstallContext) {
    const storage = rooStorageDirs(ctx.env, ctx.home);
    if (storage.length === 0) {
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
      changes: storage.map((dir) => mcpServersChange(join(dir, 'settings', 'mcp_settings.json'), 'roo-code', ctx)),
      nextSteps: ['Reload the editor window so Roo Code / Zoo Code starts the claude-mem MCP server.'],
      notes: ['Roo Code has no hooks: it can search and save memories through MCP, but its sessions are not captured.'],
    };
  },
};
