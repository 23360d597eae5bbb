/**
 * The memory context for injection, fetched once per session and kept: hosts that ask before
 * every model call (OpenCode's system transform) must not pay a worker round trip each time.
 *
 * The host waits at most the context budget (CLAUDE_MEM_CONTEXT_BUDGET_MS, settings.json
 * `contextBudgetMs`, default 1.5 s). A fetch that is slower keeps going in the background and its
 * answer serves the next call; a failed fetch is retried after RETRY_MS, never in a tight loop.
 */
import type { HookLog } from '../../hook/debug-log.js';
import { errorText } from '../../hook/debug-log.js';
import type { WorkerLink } from '../../hook/link.js';
import { contextPath, contextTextOf } from '../../shared/worker-api.js';
import { workerRequest } from '../../shared/worker-client.js';

/** How long a background fetch may take in all (starting a worker included). */
const FETCH_LIMIT_MS = 8_000;
/** After a failure, the next attempt waits this long. */
const RETRY_MS = 5_000;

export interface ContextKey {
  cwd: string;
  /** The host's session id: the worker leaves this session out of its own context. */
  sessionId?: string;
}

interface ContextCache {
  /** The context text ('' when there is none or it did not come within the budget). Never rejects. */
  get(key: ContextKey, budgetMs: number): Promise<string>;
  /** Starts fetching without waiting (e.g. when a session is created). */
  prefetch(key: ContextKey): void;
  /** Forgets a session's context (it ended or compacted: the next call fetches again). */
  forget(sessionId: string): void;
}

interface Entry {
  text?: string;
  running?: Promise<string | undefined>;
  failedAt?: number;
}

const keyOf = (k: ContextKey) => k.sessionId ?? `cwd:${k.cwd}`;
const MAX_ENTRIES = 256;

/** `maxTokens`: the budget the host's environment or settings.json gives (undefined: the worker's). */
export function createContextCache(host: string, link: WorkerLink, log: HookLog, maxTokens: () => number | undefined = () => undefined): ContextCache {
  const entries = new Map<string, Entry>();

  /** undefined = failed (retry later); '' = the worker has nothing for this project. */
  const fetchOnce = async (k: ContextKey): Promise<string | undefined> => {
    const deadline = Date.now() + FETCH_LIMIT_MS;
    try {
      let endpoint = link.endpoint();
      if (!endpoint) endpoint = await link.start(FETCH_LIMIT_MS / 2);
      if (!endpoint) return undefined;
      const res = await workerRequest({
        port: endpoint.port, auth: endpoint.auth, path: contextPath({ cwd: k.cwd, host, session: k.sessionId, maxTokens: maxTokens() }), timeoutMs: Math.max(50, deadline - Date.now()),
      });
      if (res.status < 200 || res.status >= 300) {
        log.detail(`context: worker answered ${res.status}`);
        return undefined;
      }
      return contextTextOf(res.body);
    } catch (err) {
      // An answer without the worker's proof is never injected into the conversation.
      if ((err as { code?: unknown }).code === 'unproven_answer') link.markDown();
      log.detail(`context: ${errorText(err)}`);
      return undefined;
    }
  };

  const start = (k: ContextKey): Entry => {
    const id = keyOf(k);
    let e = entries.get(id);
    if (!e) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      e = {};
      entries.set(id, e);
    }
    const entry = e;
    if (entry.text !== undefined || entry.running) return entry;
    if (entry.failedAt !== undefined && Date.now() - entry.failedAt < RETRY_MS) return entry;
    entry.running = fetchOnce(k).then((text) => {
      entry.running = undefined;
      if (text === undefined) entry.failedAt = Date.now();
      else entry.text = text;
      return text;
    });
    return entry;
  };

  return {
    async get(k, budgetMs) {
      const entry = start(k);
      if (entry.text !== undefined) return entry.text;
      if (!entry.running || budgetMs <= 0) return '';
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), budgetMs)));
      const text = await Promise.race([entry.running, late]);
      clearTimeout(timer);
      return text ?? '';
    },
    prefetch(k) {
      start(k);
    },
    forget(sessionId) {
      entries.delete(sessionId);
    },
  };
}
