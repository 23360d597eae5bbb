/**
 * Codex runs a user hook only once it is trusted, and skips untrusted hooks without a word. Trust
 * is stored per handler in the user's config.toml as
 * `[hooks.state."<hooks file>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`, and any edit
 * of the hook makes it untrusted again.
 *
 * We trust exactly our hooks the way Codex's own /hooks screen does, through `codex app-server`:
 * `initialize`, `hooks/list` (Codex computes each hook's key and current hash), then
 * `config/batchWrite` with `hooks.state."<key>".trusted_hash = <currentHash>` for ours. We never
 * compute a hash ourselves: only Codex knows what it hashes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { homeDir, type Env } from '../../shared/paths.js';
import { VERSION } from '../../shared/version.js';
import { AppServerClient, findOnPath } from './codex-app-server.js';
import type { HookTrust as CodexTrust } from '../../npx-cli/hosts/types.js';

/** What `hooks/list` reports per hook (the fields we use). */
export interface CodexHook {
  key: string;
  eventName: string;
  handlerType: string;
  command?: string;
  sourcePath: string;
  source: string;
  currentHash: string;
  trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified' | string;
}

export const TRUST_FIX = 'Start codex, type /hooks, and trust the claude-mem hooks (or run `claude-mem install --ide codex --yes` again).';
const TIMEOUT_MS = 20_000;

/** Our handlers: command hooks in a file we wrote whose command runs `claude-mem hook codex …`. */
export function isOurHook(h: CodexHook, files: readonly string[]): boolean {
  return h.handlerType === 'command' && files.includes(h.sourcePath) && /\bhook\s+codex\b/.test(h.command ?? '');
}

export function summarize(ours: readonly CodexHook[]): Pick<CodexTrust, 'state' | 'detail' | 'hooks' | 'fix'> {
  const hooks = ours.map((h) => ({ key: h.key, event: h.eventName, trust: h.trustStatus }));
  if (ours.length === 0) {
    return {
      state: 'missing', hooks,
      detail: 'Codex lists none of the claude-mem hooks (is the hooks feature on, and is the hooks file where Codex reads it?)',
      fix: 'Run `claude-mem install --ide codex` again, then `claude-mem doctor`.',
    };
  }
  const ok = ours.filter((h) => h.trustStatus === 'trusted' || h.trustStatus === 'managed').length;
  if (ok === ours.length) return { state: 'trusted', hooks, detail: `Codex trusts all ${ours.length} claude-mem hooks` };
  return {
    state: ok === 0 ? 'untrusted' : 'partial', hooks, fix: TRUST_FIX,
    detail: `${ours.length - ok} of ${ours.length} claude-mem hooks are not trusted by Codex (${ours.filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed').map((h) => `${h.eventName}: ${h.trustStatus}`).join(', ')}); Codex skips them silently, so capture is off`,
  };
}

interface Session {
  client: AppServerClient;
  codexHome: string;
}

async function open(env: Env, home: string): Promise<Session | { error: string }> {
  const bin = findOnPath('codex', env);
  if (!bin) return { error: 'codex is not on PATH, so its hooks could not be trusted from here' };
  const client = new AppServerClient(bin, env, home);
  try {
    const init = await client.request<{ codexHome?: string }>('initialize', {
      clientInfo: { name: 'claude-mem', title: 'claude-mem installer', version: VERSION },
      capabilities: null,
    }, TIMEOUT_MS);
    client.notify('initialized');
    return { client, codexHome: init?.codexHome ?? env.CODEX_HOME ?? join(home, '.codex') };
  } catch (e) {
    await client.close();
    return { error: `codex app-server failed: ${(e as Error).message}` };
  }
}

async function listHooks(s: Session, home: string): Promise<CodexHook[]> {
  const r = await s.client.request<{ data?: Array<{ hooks?: CodexHook[] }> }>('hooks/list', { cwds: [home] }, TIMEOUT_MS);
  return (r?.data ?? []).flatMap((e) => e.hooks ?? []);
}

function unavailable(detail: string): CodexTrust {
  return { state: 'unavailable', detail: `${detail}. Until the hooks are trusted, Codex skips them and nothing is captured.`, fix: TRUST_FIX, hooks: [] };
}

/** The trust entries Codex held before we asked it to write (so uninstall can put them back). */
function trustBefore(configPath: string): Record<string, string | undefined> {
  try {
    const data = parseToml(readFileSync(configPath, 'utf8')) as { hooks?: { state?: Record<string, { trusted_hash?: string }> } };
    return Object.fromEntries(Object.entries(data.hooks?.state ?? {}).map(([k, v]) => [k, v?.trusted_hash]));
  } catch {
    return {};
  }
}

export interface TrustWrite {
  configPath: string;
  /** Each entry written: the key, the hash Codex reported, and the hash there before (if any). */
  entries: Array<{ key: string; hash: string; previous?: string }>;
}

export interface TrustOutcome {
  trust: CodexTrust;
  written?: TrustWrite;
}

/** Trusts our Codex hooks (the files install wrote). Never throws: a failure is reported as the trust state. */
export async function trustCodexHooks(env: Env, files: readonly string[]): Promise<TrustOutcome> {
  const home = homeDir(env);
  const s = await open(env, home);
  if ('error' in s) return { trust: unavailable(s.error) };
  try {
    const ours = (await listHooks(s, home)).filter((h) => isOurHook(h, files));
    const todo = ours.filter((h) => h.trustStatus === 'untrusted' || h.trustStatus === 'modified');
    if (todo.length === 0) return { trust: summarize(ours) };
    if (todo.some((h) => h.key.includes('"') || h.key.includes('\\'))) return { trust: unavailable('a hooks file path holds a quote or backslash, which a config key path cannot carry') };
    const configPath = join(s.codexHome, 'config.toml');
    const before = trustBefore(configPath);
    const res = await s.client.request<{ filePath?: string }>('config/batchWrite', {
      edits: todo.map((h) => ({ keyPath: `hooks.state."${h.key}".trusted_hash`, value: h.currentHash, mergeStrategy: 'upsert' })),
    }, TIMEOUT_MS);
    const after = (await listHooks(s, home)).filter((h) => isOurHook(h, files));
    return {
      trust: summarize(after),
      written: {
        configPath: res?.filePath ?? configPath,
        entries: todo.map((h) => ({ key: h.key, hash: h.currentHash, ...(before[h.key] !== undefined && { previous: before[h.key] }) })),
      },
    };
  } catch (e) {
    return { trust: unavailable(`codex app-server failed: ${(e as Error).message}`) };
  } finally {
    await s.client.close();
  }
}

export interface TrustStatusContext {
  env: Env;
  /** The data directory (its install-manifest.json names the Codex files we wrote). */
  dataDir: string;
}

/** For doctor: does Codex trust the claude-mem hooks recorded in the manifest? Asks Codex; writes nothing of ours. */
export async function codexTrustStatus(ctx: TrustStatusContext): Promise<CodexTrust> {
  const manifest = join(ctx.dataDir, 'install-manifest.json');
  let files: string[] = [];
  try {
    if (existsSync(manifest)) files = Object.keys((JSON.parse(readFileSync(manifest, 'utf8')) as { hosts?: Record<string, { files?: object }> }).hosts?.codex?.files ?? {});
  } catch {
    // An unreadable manifest: doctor reports it on its own.
  }
  if (files.length === 0) return { state: 'missing', detail: 'claude-mem is not installed for Codex', hooks: [], fix: 'claude-mem install --ide codex' };
  const home = homeDir(ctx.env);
  const s = await open(ctx.env, home);
  if ('error' in s) return unavailable(s.error);
  try {
    return { ...summarize((await listHooks(s, home)).filter((h) => isOurHook(h, files))) };
  } catch (e) {
    return unavailable(`codex app-server failed: ${(e as Error).message}`);
  } finally {
    await s.client.close();
  }
}
