/** The hosts claude-mem knows, their public ids and the aliases users may type. */

export const HOST_IDS = [
  'claude-code', 'codex', 'cursor', 'windsurf', 'kimi', 'antigravity', 't3code', 'opencode',
  'openclaw', 'omp', 'pi', 'dsh', 'grok', 'copilot', 'goose', 'roo-code', 'warp', 'gemini',
] as const;

export type HostId = (typeof HOST_IDS)[number];

/** Hook dialects the `hook` command understands: every host with hooks, plus the generic `raw`. */
export type HookHostId = HostId | 'raw';

export const HOST_ALIASES: Readonly<Record<string, HostId>> = {
  claude: 'claude-code',
  'codex-cli': 'codex',
  'kimi-code': 'kimi',
  agy: 'antigravity',
  t3: 't3code',
  't3-code': 't3code',
  'oh-my-pi': 'omp',
  'pi-mono': 'pi',
  'deepseek-harness': 'dsh',
  'grok-bot': 'grok',
  'grok-build': 'grok',
  'copilot-cli': 'copilot',
  'zoo-code': 'roo-code',
  'gemini-cli': 'gemini',
};

export const HOST_LABELS: Readonly<Record<HostId, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  kimi: 'Kimi Code',
  antigravity: 'Antigravity',
  t3code: 'T3 Code',
  opencode: 'OpenCode',
  openclaw: 'OpenClaw',
  omp: 'OMP (oh-my-pi)',
  pi: 'Pi',
  dsh: 'DeepSeek Harness',
  grok: 'Grok',
  copilot: 'Copilot CLI',
  goose: 'Goose',
  'roo-code': 'Roo Code',
  warp: 'Warp',
  gemini: 'Gemini CLI',
};

export function isHostId(value: string): value is HostId {
  return (HOST_IDS as readonly string[]).includes(value);
}

/** Resolves an id or alias (case-insensitive) to a host id, or undefined. */
export function resolveHostId(value: string): HostId | undefined {
  const v = value.trim().toLowerCase();
  if (isHostId(v)) return v;
  return HOST_ALIASES[v];
}

/**
 * Resolves a list of `--ide` values; `all` expands to every host.
 * Throws with the unknown names so the CLI can exit 2 with a clear message.
 */
export function resolveHostList(values: readonly string[]): HostId[] {
  const out = new Set<HostId>();
  const unknown: string[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    if (!raw.trim()) continue;
    if (raw.trim().toLowerCase() === 'all') {
      HOST_IDS.forEach((h) => out.add(h));
      continue;
    }
    const id = resolveHostId(raw);
    if (id) out.add(id);
    else unknown.push(raw);
  }
  if (unknown.length) {
    throw new Error(`Unknown host ${unknown.map((u) => `"${u}"`).join(', ')}. Known hosts: ${HOST_IDS.join(', ')} (or "all").`);
  }
  return [...out];
}
