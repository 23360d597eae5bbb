/** Talking to the worker: reads carry the sign-in cookie; writes also the page's CSRF token. */
const meta = document.querySelector<HTMLMetaElement>('meta[name="claude-mem-csrf"]');
const CSRF = meta?.content ?? '';
const CSRF_HEADER = meta?.dataset.header ?? 'x-claude-mem-csrf';
export const WRITES = new Set((meta?.dataset.writes ?? '').split(',').filter(Boolean));

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as ({ error?: { message?: string } } & T) | null;
  if (!res.ok) throw new Error(body?.error?.message ?? `the worker answered ${res.status}`);
  return body as T;
}

export async function getJson<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const qs = q.toString();
  return answer<T>(await fetch(`/viewer/api/${path}${qs ? `?${qs}` : ''}`, { credentials: 'same-origin', headers: { accept: 'application/json' } }));
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(await fetch(`/viewer/api/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', [CSRF_HEADER]: CSRF },
    body: JSON.stringify(body),
  }));
}
