// Shared pieces of the stdio tests: seeding a store, spawning `claude-mem mcp`, calling tools.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { DIST_BIN } from '../helpers/temp.js';

const run = promisify(execFile);

export const SESSION = 'mcp-test-session-1';

/** One short Claude Code session in `cwd`: a prompt, a distinctive shell command, an edit. */
export function seedEvents(cwd: string): CaptureEvent[] {
  const at = (s: number) => new Date(Date.parse('2025-03-01T10:00:00Z') + s * 1000).toISOString();
  const base = { host: 'claude-code', source: 'hook', sessionId: SESSION, cwd } as const;
  return [
    { ...base, kind: 'session_start', reason: 'startup', at: at(0) },
    { ...base, kind: 'prompt', promptId: 'p1', prompt: 'make the quokka exporter faster', at: at(1) },
    {
      ...base, kind: 'tool_result', promptId: 'p1', toolUseId: 'tu-1', toolName: 'Bash', rawToolName: 'Bash',
      toolInput: { command: 'npm run bench -- --suite xylophone' },
      toolResponse: { stdout: 'xylophone suite: 42 ops/s', stderr: '', exitCode: 0 }, at: at(2),
    },
    {
      ...base, kind: 'tool_result', promptId: 'p1', toolUseId: 'tu-2', toolName: 'Edit', rawToolName: 'Edit',
      filePath: join(cwd, 'src', 'quokka-exporter.ts'),
      toolInput: { file_path: join(cwd, 'src', 'quokka-exporter.ts'), old_string: 'for (const row of rows)', new_string: 'rows.forEach(' },
      toolResponse: { success: true }, at: at(3),
    },
  ];
}

export function seed(dataDir: string, cwd: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const store = openStore(join(dataDir, 'claude-mem.db'));
  try {
    const res = store.ingest(seedEvents(cwd));
    if (res.rejected.length) throw new Error(`seed rejected: ${JSON.stringify(res.rejected)}`);
  } finally {
    store.close();
  }
}

export interface McpSession {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

export async function connectMcp(env: NodeJS.ProcessEnv, cwd: string): Promise<McpSession> {
  const cleanEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [DIST_BIN, 'mcp'], env: cleanEnv, cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'claude-code', version: 'test' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [DIST_BIN, ...args], { env, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
