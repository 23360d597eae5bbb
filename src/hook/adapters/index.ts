/** The adapter registry: one dialect per hook host, the raw dialect for everything else. */
import type { HookHostId, HostId } from '../../shared/hosts.js';
import type { HookAdapter } from '../types.js';
import { antigravityAdapter } from './antigravity.js';
import { claudeCodeAdapter } from './claude-code.js';
import { codexAdapter } from './codex.js';
import { copilotAdapter } from './copilot.js';
import { cursorAdapter } from './cursor.js';
import { geminiAdapter } from './gemini.js';
import { gooseAdapter } from './goose.js';
import { grokAdapter } from './grok.js';
import { kimiAdapter } from './kimi.js';
import { rawAdapter, rawAdapterFor } from './raw.js';
import { windsurfAdapter } from './windsurf.js';

const DIALECTS: Readonly<Partial<Record<HookHostId, HookAdapter>>> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  cursor: cursorAdapter,
  windsurf: windsurfAdapter,
  kimi: kimiAdapter,
  antigravity: antigravityAdapter,
  grok: grokAdapter,
  copilot: copilotAdapter,
  gemini: geminiAdapter,
  goose: gooseAdapter,
  raw: rawAdapter,
};

const rawByHost = new Map<HostId, HookAdapter>();

/** The adapter for `claude-mem hook <host> …`; hosts without a hook dialect read the raw format. */
export function getAdapter(host: HookHostId): HookAdapter {
  const dialect = DIALECTS[host];
  if (dialect) return dialect;
  const id = host as HostId;
  let adapter = rawByHost.get(id);
  if (!adapter) rawByHost.set(id, (adapter = rawAdapterFor(id)));
  return adapter;
}

/** Hosts with a hook dialect of their own. */
export const HOOK_DIALECT_HOSTS = Object.keys(DIALECTS) as HookHostId[];
