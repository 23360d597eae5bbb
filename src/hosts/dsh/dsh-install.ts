/**
 * DeepSeek Harness: captured by the transcript watch (single writer: the worker reads
 * `$DSH_HOME/sessions/**\/session.jsonl*` with the `dsh` schema), recalled through MCP (a
 * `@deepseek-ai/dsh-mcp-client` row) and a recall-only Cordis plugin that adds memory context
 * at session start. Both rows go in `$DSH_HOME/cordis.patch.yml`.
 *
 * A patch file's top level is a YAML sequence of `- insert: [...]` rows, which the engine's
 * yaml-set (a map entry) cannot address; the rows are therefore one managed block appended to
 * the sequence (comments and every other byte kept; removed exactly on uninstall), and the file
 * is parsed before and after to prove the result is still a valid patch.
 */
import { join } from 'node:path';
import { parseDocument, isSeq, stringify } from 'yaml';
import type { Change, JsonArrayUpsertChange, TextBlockChange } from '../../npx-cli/engine/index.js';
import { ConfigConflictError } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { findBinary, probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { readText } from '../../npx-cli/hosts/common/read.js';
import { binaryPackageVersion } from '../../npx-cli/hosts/common/detect.js';
import { pluginDirChanges, pluginRuntimeCheck } from '../pi/pi-install.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { dshFacts } from './dsh-facts.js';
import { settleWatch } from '../../npx-cli/install/writer-planner.js';

const DSH_MCP_PACKAGE = '@deepseek-ai/dsh-mcp-client';
const DSH_BLOCK_ID = 'dsh';
const DSH_WATCH_NAME = 'dsh';
export const WATCH_MANAGED_BY = 'claude-mem-install';

export const dshHome = (env: Env, home = homeDir(env)) => envDir(env, home, 'DSH_HOME', '.dsh');
const dshPluginDir = (env: Env, home = homeDir(env)) => join(dshHome(env, home), 'claude-mem');
const dshPatchFile = (env: Env, home = homeDir(env)) => join(dshHome(env, home), 'cordis.patch.yml');

/** The transcript watch: absolute (the worker may not share the installing shell's DSH_HOME). */
function dshWatch(env: Env, home = homeDir(env)) {
  return {
    name: DSH_WATCH_NAME,
    path: join(dshHome(env, home), 'sessions', '**', 'session.jsonl*'),
    schema: 'dsh',
    startAtEnd: true,
    managedBy: WATCH_MANAGED_BY,
  };
}

/** The two patch rows: the MCP client (tools appear as mcp__claude-mem__mem_*) and the recall plugin. */
function dshPatchRows(ctx: InstallContext): unknown[] {
  const server = mcpServer(ctx);
  return [{
    insert: [
      {
        id: 'claude-mem-mcp',
        name: DSH_MCP_PACKAGE,
        config: {
          serverName: MCP_KEY,
          transport: 'stdio',
          command: server.command,
          args: server.args,
          // The stdio child loses DSH_* and credential-shaped variables: name the data directory.
          env: { CLAUDE_MEM_DATA_DIR: ctx.dataDir },
          failOnStartupError: false,
        },
      },
      { id: 'claude-mem', name: join(dshPluginDir(ctx.env, ctx.home), 'index.js') },
    ],
  }];
}

function conflict(file: string, why: string): never {
  throw new ConfigConflictError(file, `${file}: ${why}`, `Rewrite ${file} as a YAML list of patch rows (\`- insert: [...]\`), or move it aside, then run the command again.`);
}

/** Refuses a patch file the appended rows would not fit: not YAML, or a top level that is not a list. */
function checkPatchFile(file: string, text: string | undefined, block: string): void {
  if (text === undefined || text.trim() === '') return;
  const doc = parseDocument(text);
  if (doc.errors.length) conflict(file, `invalid YAML (${doc.errors[0].message.split('\n')[0]})`);
  const root = doc.contents;
  if (root !== null && root !== undefined && !(isSeq(root) && !root.flow)) conflict(file, 'the top level is not a block list of patch rows');
  const after = parseDocument(`${text.replace(/\s*$/, '')}\n${block}\n`);
  if (after.errors.length || !isSeq(after.contents)) conflict(file, 'the claude-mem rows would not parse after the existing rows');
}

export const dsh: HostModule = {
  ...hostIdentity(dshFacts),
  settleWriters(s) {
    const changes = settleWatch('dsh', s);
    s.decision.detail.push('the transcript watch captures; the DeepSeek Harness plugin only recalls and never captures');
    return changes;
  },
  async detect(env) {
    const d = await probe({ dirs: [{ path: dshHome(env), env: env.DSH_HOME ? 'DSH_HOME' : undefined }], binaries: ['dsh'] }, env);
    const version = binaryPackageVersion(findBinary('dsh', env), ['@deepseek-ai/dsh']);
    return version === undefined ? d : { ...d, version };
  },
  async plan(ctx: InstallContext) {
    const patch = dshPatchFile(ctx.env, ctx.home);
    const content = stringify(dshPatchRows(ctx), { lineWidth: 0 }).replace(/\n$/, '');
    checkPatchFile(patch, readText(patch), content);
    const block: TextBlockChange = { kind: 'text-block', file: patch, host: 'dsh', id: DSH_BLOCK_ID, content, comment: 'hash' };
    const watch: JsonArrayUpsertChange = {
      kind: 'json-array-upsert',
      file: join(ctx.dataDir, 'transcript-watch.json'),
      host: 'dsh',
      path: ['watches'],
      match: [{ path: ['name'], equals: DSH_WATCH_NAME }],
      entry: dshWatch(ctx.env, ctx.home),
    };
    const changes: Change[] = [...pluginDirChanges(ctx, 'dsh', dshPluginDir(ctx.env, ctx.home)), block, watch];
    return {
      capture: 'transcript',
      recall: 'mcp',
      changes,
      nextSteps: ['Restart DeepSeek Harness (`dsh`, or `dsh web`) so it loads the patch rows.'],
      notes: [
        'Captured from its session logs by the claude-mem worker (the plugin never captures, so nothing is stored twice).',
        `Memory tools come from the ${DSH_MCP_PACKAGE} row; the claude-mem plugin adds memory context at session start.`,
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const patch = dshPatchFile(ctx.env, ctx.home);
    const text = readText(patch);
    let rows = false;
    try {
      rows = !!text && (parseDocument(text).toJS() as unknown[] | null)?.some((r) => JSON.stringify(r).includes(DSH_MCP_PACKAGE) && JSON.stringify(r).includes(`"serverName":"${MCP_KEY}"`)) === true;
    } catch {
      rows = false;
    }
    return [pluginRuntimeCheck('dsh', dshPluginDir(ctx.env, ctx.home), ctx), {
      id: 'dsh.mcp-row',
      status: rows ? 'ok' : 'fail',
      evidence: rows ? `${patch} has the ${DSH_MCP_PACKAGE} row for claude-mem` : `${patch} has no ${DSH_MCP_PACKAGE} row for claude-mem`,
      ...(!rows && { fix: 'Run claude-mem install --ide dsh.' }),
    }];
  },
};
