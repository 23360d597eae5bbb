/**
 * Antigravity (`agy` CLI and the IDE): one named hook `claude-mem` in `~/.gemini/config/hooks.json`
 * and `~/.gemini/config/mcp_config.json`. agy reads hooks.json as strict JSON and drops the whole
 * file, silently, on a comment or a trailing comma; doctor checks for that.
 */
import { join } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { hookCommand, MCP_KEY } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { readText } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { antigravityFacts } from './antigravity-facts.js';

/** PreToolUse is a decision point: it is not registered (an answer there could bypass approval). */
const ANTIGRAVITY_EVENTS = ['SessionStart', 'PreInvocation', 'PostToolUse', 'PostInvocation', 'Stop'] as const;
const CONTEXT_EVENTS = ['SessionStart', 'PreInvocation'];
/** Tool events take matcher groups; the others a flat handler list. */
const GROUPED = new Set(['PreToolUse', 'PostToolUse']);

const antigravityDir = (env: Env, home = homeDir(env)) => join(home, '.gemini', 'config');

function namedHook(ctx: InstallContext): Record<string, unknown> {
  const hook: Record<string, unknown> = {};
  for (const event of ANTIGRAVITY_EVENTS) {
    const handler = { type: 'command', command: hookCommand(ctx, 'antigravity', event), timeout: timeoutSeconds(event, CONTEXT_EVENTS) };
    hook[event] = GROUPED.has(event) ? [{ matcher: '*', hooks: [handler] }] : [handler];
  }
  return hook;
}

export const antigravity: HostModule = {
  ...hostIdentity(antigravityFacts),
  detect(env) {
    const home = homeDir(env);
    return probe({
      dirs: [{ path: antigravityDir(env, home) }, { path: join(home, '.gemini', 'antigravity-cli') }, { path: join(home, '.gemini', 'antigravity') }],
      binaries: ['agy', 'antigravity'],
      version: false,
    }, env);
  },
  async plan(ctx: InstallContext) {
    const dir = antigravityDir(ctx.env, ctx.home);
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes: [
        { kind: 'json-set', file: join(dir, 'hooks.json'), host: 'antigravity', path: [MCP_KEY], value: namedHook(ctx) },
        mcpServersChange(join(dir, 'mcp_config.json'), 'antigravity', ctx),
      ],
      nextSteps: ['Restart agy / the Antigravity IDE so it loads the claude-mem hook and MCP server.'],
      notes: ['Antigravity has no session-end hook; sessions close when the transcript goes quiet.'],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(antigravityDir(ctx.env, ctx.home), 'hooks.json');
    const text = readText(file);
    if (text === undefined) return [{ id: 'antigravity.hooks-strict-json', status: 'warn', evidence: `${file} does not exist`, fix: 'Run claude-mem install --ide antigravity.' }];
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
    let strict = errors.length === 0;
    try {
      JSON.parse(text);
    } catch {
      strict = false;
    }
    return [{
      id: 'antigravity.hooks-strict-json',
      status: strict ? 'ok' : 'fail',
      evidence: strict ? `${file} is strict JSON` : `${file} has comments, trailing commas or invalid JSON: agy ignores the whole file`,
      ...(!strict && { fix: `Remove comments and trailing commas from ${file}.` }),
    }];
  },
};
