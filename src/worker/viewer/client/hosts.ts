/** The hosts' ids and labels, as the page shell carries them (the host facts are node modules). */
const meta = document.querySelector<HTMLMetaElement>('meta[name="claude-mem-hosts"]');

function readHosts(): Array<[string, string]> {
  try {
    const parsed: unknown = JSON.parse(meta?.content ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string') : [];
  } catch {
    return [];
  }
}

const HOSTS = readHosts();
export const HOST_IDS: readonly string[] = HOSTS.map(([id]) => id);
export const HOST_LABELS: Readonly<Record<string, string>> = Object.fromEntries(HOSTS);
