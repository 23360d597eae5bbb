/**
 * The hook dialects: one per host whose facts say `hooks` (src/hosts/<id>/<id>-hooks.ts), the raw
 * dialect for everything else. Each adapter names its own host.
 */
import type { HookHostId, HostId } from '../../shared/hosts.js';
import type { HookAdapter } from '../types.js';
import { antigravityAdapter } from '../../hosts/antigravity/antigravity-hooks.js';
import { claudeCodeAdapter } from '../../hosts/claude-code/claude-code-hooks.js';
import { codexAdapter } from '../../hosts/codex/codex-hooks.js';
import { copilotAdapter } from '../../hosts/copilot/copilot-hooks.js';
import { cursorAdapter } from '../../hosts/cursor/cursor-hooks.js';
import { geminiAdapter } from '../../hosts/gemini/gemini-hooks.js';
import { gooseAdapter } from '../../hosts/goose/goose-hooks.js';
import { grokAdapter } from '../../hosts/grok/grok-hooks.js';
import { kimiAdapter } from '../../hosts/kimi/kimi-hooks.js';
import { windsurfAdapter } from '../../hosts/windsurf/windsurf-hooks.js';
import { rawAdapter, rawAdapterFor } from './raw.js';

const DIALECTS: ReadonlyMap<HookHostId, HookAdapter> = new Map([
  claudeCodeAdapter, codexAdapter, cursorAdapter, windsurfAdapter, kimiAdapter, antigravityAdapter,
  grokAdapter, copilotAdapter, geminiAdapter, gooseAdapter, rawAdapter,
].map((a) => [a.host, a]));

const rawByHost = new Map<HostId, HookAdapter>();

/** The adapter for `claude-mem hook <host> …`; hosts without a hook dialect read the raw format. */
export function getAdapter(host: HookHostId): HookAdapter {
  const dialect = DIALECTS.get(host);
  if (dialect) return dialect;
  const id = host as HostId;
  let adapter = rawByHost.get(id);
  if (!adapter) rawByHost.set(id, (adapter = rawAdapterFor(id)));
  return adapter;
}

/** Hosts with a hook dialect of their own. */
export const HOOK_DIALECT_HOSTS = [...DIALECTS.keys()];
