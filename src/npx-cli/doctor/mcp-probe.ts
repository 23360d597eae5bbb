/**
 * MCP round trip: start our server exactly as the host's config says (command, args, env), call
 * `mem_search` with the SDK client, expect a valid result. Hosts that launch the very same command
 * share one run (the command is what is proven, and the budget is short).
 */
import { resolve } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import type { McpLaunch } from './hook-commands.js';
import type { DoctorContext } from './context.js';
import { probeEnv } from './probe.js';
import { errorText, within } from './timebox.js';
import type { Check } from './types.js';

interface McpResult {
  ok: boolean;
  text: string;
  ms: number;
}

async function callSearch(ctx: DoctorContext, launch: McpLaunch): Promise<McpResult> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  let sdk;
  try {
    sdk = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js')]);
  } catch (e) {
    return { ok: false, text: `the MCP client library does not load: ${errorText(e)}`, ms: ms() };
  }
  const [{ Client }, { StdioClientTransport }] = sdk;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...probeEnv(ctx.env as NodeJS.ProcessEnv), ...launch.env })) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({ command: launch.argv[0], args: launch.argv.slice(1), env, cwd: ctx.workDir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const client = new Client({ name: 'claude-mem-doctor', version: '1' });
  try {
    await within(client.connect(transport), ctx.probeTimeoutMs, 'starting the MCP server');
    const left = Math.max(200, ctx.probeTimeoutMs - ms());
    const r = await within(client.callTool({ name: 'mem_search', arguments: { query: 'mcp round trip', limit: 1 } }), left, 'mem_search');
    const results = (r.structuredContent as { results?: unknown } | undefined)?.results;
    if (r.isError) return { ok: false, text: `mem_search answered an error: ${JSON.stringify(r.content).slice(0, 300)}`, ms: ms() };
    if (!Array.isArray(results)) return { ok: false, text: 'mem_search answered without a results list', ms: ms() };
    const via = (r.structuredContent as { via?: string }).via;
    return { ok: true, text: `mem_search answered in ${ms()} ms (${results.length} hit(s)${via ? `, via ${via}` : ''})`, ms: ms() };
  } catch (e) {
    const last = stderr.trim().split('\n').pop();
    return { ok: false, text: `${errorText(e)}${last ? ` (stderr: ${last.slice(0, 300)})` : ''}`, ms: ms() };
  } finally {
    // A server that ignores the end of its stdin is not waited for (the SDK kills it later).
    await within(client.close(), 500, 'closing the MCP server').catch(() => {});
  }
}

export async function mcpRoundTrips(ctx: DoctorContext, launches: ReadonlyMap<HostId, McpLaunch[]>): Promise<Check[]> {
  // A server that finds no worker starts one: without --fix, doctor starts nothing.
  if ((await ctx.worker()).state !== 'running') {
    return [...launches].filter(([, l]) => l.length).map(([host]) => ({
      id: `${host}.mcp`, area: 'hosts', host, status: 'warn',
      evidence: 'not run: the worker is not running (see worker.identity), and the MCP server would start it', fix: 'claude-mem doctor --fix',
    }));
  }
  const runs = new Map<string, Promise<McpResult>>();
  // Env entries that change nothing (the value the server would get anyway) do not make a launch different.
  const base = probeEnv(ctx.env as NodeJS.ProcessEnv);
  const same = (k: string, v: string) => base[k] === v || (k === 'CLAUDE_MEM_DATA_DIR' && resolve(v) === ctx.paths.root);
  const keyOf = (l: McpLaunch) => JSON.stringify([l.argv, Object.entries(l.env).filter(([k, v]) => !same(k, v)).sort()]);
  for (const list of launches.values()) {
    for (const l of list) if (!runs.has(keyOf(l))) runs.set(keyOf(l), callSearch(ctx, l));
  }
  const out: Check[] = [];
  for (const [host, list] of launches) {
    if (list.length === 0) continue;
    const results = await Promise.all(list.map((l) => runs.get(keyOf(l))!));
    const bad = results.findIndex((r) => !r.ok);
    const shown = (list[bad < 0 ? 0 : bad]).argv.join(' ');
    out.push(bad < 0
      ? { id: `${host}.mcp`, area: 'hosts', host, status: 'ok', evidence: `\`${shown}\`: ${results[0].text}` }
      : {
        id: `${host}.mcp`, area: 'hosts', host, status: 'fail',
        evidence: `\`${shown}\`: ${results[bad].text}`,
        fix: `Run it by hand to see the error: ${shown}; or claude-mem install --ide ${host}`,
      });
  }
  return out;
}
