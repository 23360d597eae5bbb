/**
 * T3 Code runs provider CLIs (Codex, Claude Code, …) as subprocesses and has no hooks or MCP
 * registry of its own: its sessions are captured by the providers' own claude-mem writers, so it
 * gets no changes. The summary says which providers are covered in this run.
 */
import { join } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { detectClaudeCode } from './claude-code.js';
import { detectCodex } from './codex.js';
import { probe } from './common/detect.js';
import { envDir } from './common/paths.js';
import type { Detection, HostModule, InstallContext } from './types.js';

const PROVIDERS: ReadonlyArray<{ id: HostId; label: string; detect: (env: Env) => Promise<Detection> }> = [
  { id: 'codex', label: 'Codex', detect: detectCodex },
  { id: 'claude-code', label: 'Claude Code', detect: detectClaudeCode },
];

export const t3Home = (env: Env, home = homeDir(env)) => envDir(env, home, 'T3CODE_HOME', '.t3');

export const t3code: HostModule = {
  id: 't3code',
  label: 'T3 Code',
  aliases: ['t3', 't3-code'],
  detect: (env) => probe({
    dirs: [{ path: t3Home(env), env: env.T3CODE_HOME ? 'T3CODE_HOME' : undefined }],
    files: [join(t3Home(env), 'userdata', 'state.sqlite')],
    binaries: ['t3'],
  }, env),
  async plan(ctx: InstallContext) {
    const nextSteps: string[] = [];
    for (const p of PROVIDERS) {
      if (ctx.selected.includes(p.id)) {
        nextSteps.push(`${p.label} sessions started from T3 Code are captured by claude-mem's ${p.label} integration (selected in this run).`);
        continue;
      }
      const found = (await p.detect(ctx.env)).installed;
      nextSteps.push(found
        ? `${p.label} is installed but not selected: run \`claude-mem install --ide ${p.id}\` to capture its T3 Code sessions.`
        : `${p.label} was not found; T3 Code sessions that use it are not captured.`);
    }
    return {
      capture: 'providers',
      recall: 'providers',
      changes: [],
      nextSteps,
      notes: ['T3 Code has no hooks of its own; other providers it runs (Cursor, Grok, OpenCode, Antigravity) are covered by their own claude-mem integrations when installed.'],
    };
  },
};
