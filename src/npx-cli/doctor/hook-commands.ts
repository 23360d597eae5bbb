/**
 * What host configs tell a host to run: our hook commands (shell strings or argv arrays), the MCP
 * servers they launch, the node and entry they name, and every absolute path in our entries.
 * Pure functions over parsed documents, so any format (JSON, TOML, YAML) reads the same way.
 */
import type { HostId } from '../../shared/hosts.js';

/** POSIX shell words: single quotes, double quotes and backslashes, as `sh -c` would split them. */
export function shellWords(cmd: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      cur += cmd.slice(i + 1, end < 0 ? cmd.length : end);
      i = end < 0 ? cmd.length : end;
      has = true;
    } else if (c === '"') {
      for (i++; i < cmd.length && cmd[i] !== '"'; i++) cur += cmd[i] === '\\' && i + 1 < cmd.length ? cmd[++i] : cmd[i];
      has = true;
    } else if (c === '\\' && i + 1 < cmd.length) {
      cur += cmd[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

export interface HookCommand {
  file: string;
  event: string;
  /** A shell string (run with /bin/sh -c) or an argv array (run directly). */
  shell?: string;
  argv?: string[];
}

function walk(v: unknown, visit: (v: unknown) => void): void {
  visit(v);
  if (Array.isArray(v)) v.forEach((x) => walk(x, visit));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => walk(x, visit));
}

/** Every command in `doc` that runs `claude-mem hook <host> <event>`. */
export function findHookCommands(doc: unknown, host: HostId, file: string): HookCommand[] {
  const out: HookCommand[] = [];
  walk(doc, (v) => {
    if (typeof v === 'string') {
      const w = shellWords(v);
      const i = w.indexOf('hook');
      if (i >= 1 && w[i + 1] === host && w[i + 2]) out.push({ file, event: w[i + 2], shell: v });
    } else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      const i = v.indexOf('hook');
      if (i >= 1 && v[i + 1] === host && v[i + 2]) out.push({ file, event: v[i + 2] as string, argv: v as string[] });
    }
  });
  return out;
}

export interface McpLaunch {
  argv: string[];
  env: Record<string, string>;
}

/** The argv an MCP entry starts: `{command, args}`, `{command: [...]}` (OpenCode) or `{cmd, args}` (Goose). */
function launchOf(o: Record<string, unknown>): string[] | undefined {
  const strs = (a: unknown) => (Array.isArray(a) && a.every((x) => typeof x === 'string') ? (a as string[]) : undefined);
  const cmd = strs(o.command) ?? (typeof o.command === 'string' ? [o.command, ...(strs(o.args) ?? [])] : undefined)
    ?? (typeof o.cmd === 'string' ? [o.cmd, ...(strs(o.args) ?? [])] : undefined);
  return cmd && cmd.length >= 3 && cmd[cmd.length - 1] === 'mcp' ? cmd : undefined;
}

/** Our stdio MCP servers in `doc`: `<node> <entry> mcp`, with the env the host passes. */
export function findMcpLaunches(doc: unknown): McpLaunch[] {
  const out: McpLaunch[] = [];
  walk(doc, (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    const argv = launchOf(o);
    if (!argv || !/\.c?js$/.test(argv[1])) return;
    const rawEnv = (o.env ?? o.envs ?? o.environment) as Record<string, unknown> | undefined;
    const env: Record<string, string> = {};
    for (const [k, x] of Object.entries(rawEnv && typeof rawEnv === 'object' ? rawEnv : {})) if (typeof x === 'string') env[k] = x;
    out.push({ argv, env });
  });
  return out;
}

export interface RuntimeRef {
  node: string;
  entry: string;
}

/** The node + entry pairs our entries name (hook commands, MCP servers, plugin runtime files). */
export function runtimeRefs(values: readonly unknown[], host: HostId): RuntimeRef[] {
  const out: RuntimeRef[] = [];
  for (const v of values) {
    for (const h of findHookCommands(v, host, '')) {
      const w = h.argv ?? shellWords(h.shell!);
      if (w.length >= 3) out.push({ node: w[0], entry: w[1] });
    }
    for (const m of findMcpLaunches(v)) out.push({ node: m.argv[0], entry: m.argv[1] });
    walk(v, (x) => {
      const o = x as Record<string, unknown> | null;
      if (o && typeof o === 'object' && typeof o.nodePath === 'string' && typeof o.entryPath === 'string') out.push({ node: o.nodePath, entry: o.entryPath });
    });
  }
  return out;
}

/** Absolute paths our entries name (globs excluded: they name patterns, not files). */
export function namedPaths(values: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    walk(v, (x) => {
      if (typeof x !== 'string') return;
      const words = /\s(hook|mcp)(\s|$)/.test(x) ? shellWords(x) : x.startsWith('/') ? [x] : [];
      for (const w of words) if (w.startsWith('/') && !/[*?[\]{}]/.test(w) && !w.includes('\n')) out.add(w);
    });
  }
  return [...out];
}
