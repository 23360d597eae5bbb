/**
 * Secret redaction. Imported by the hook bundle: no dependencies, and every pattern is linear
 * (bounded quantifiers, no nested repetition) so a megabyte of tool output costs milliseconds.
 */

export const REDACTED = '[REDACTED]';

// A token may not be glued to a preceding word character ("task-…" is not "sk-…").
const START = '(?<![A-Za-z0-9_\\-])';

/** Provider prefixes distinctive enough to redact on sight. */
const STRICT_TOKENS = [
  'sk-ant-[A-Za-z0-9_\\-]{16,}', // Anthropic
  'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{16,}', // OpenAI project / service / admin keys
  'sk-or-v1-[A-Za-z0-9]{32,}', // OpenRouter
  'gh[pousr]_[A-Za-z0-9]{30,}', // GitHub
  'github_pat_[A-Za-z0-9_]{30,}',
  'glpat-[A-Za-z0-9_\\-]{20,}', // GitLab
  'xox[abposr]-[A-Za-z0-9\\-]{10,}', // Slack
  'xapp-[A-Za-z0-9\\-]{10,}',
  '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])', // AWS access key ids
  'AIza[0-9A-Za-z_\\-]{35}', // Google
  'ya29\\.[0-9A-Za-z_\\-]{20,}', // Google OAuth access token
  '(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}', // Stripe
  'whsec_[0-9A-Za-z]{20,}',
  'npm_[A-Za-z0-9]{36,}',
  'xai-[A-Za-z0-9]{20,}',
  'gsk_[A-Za-z0-9]{20,}', // Groq
  'pplx-[A-Za-z0-9]{20,}',
  'r8_[A-Za-z0-9]{20,}', // Replicate
  'SG\\.[A-Za-z0-9_\\-]{16,}\\.[A-Za-z0-9_\\-]{16,}', // SendGrid
  'dop_v1_[a-f0-9]{64}', // DigitalOcean
  'shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}', // Shopify
  'lin_api_[A-Za-z0-9]{32,}', // Linear
  'pypi-AgE[A-Za-z0-9_\\-]{50,}',
  'AGE-SECRET-KEY-1[0-9A-Z]{50,}',
  'eyJ[A-Za-z0-9_\\-]{5,}\\.eyJ[A-Za-z0-9_\\-]{5,}\\.[A-Za-z0-9_\\-]*', // JWT
];
const STRICT_RE = new RegExp(`${START}(?:${STRICT_TOKENS.join('|')})`, 'g');

/** Generic prefixes (DeepSeek, Moonshot, legacy OpenAI `sk-…`, HuggingFace): only when random-looking. */
const LOOSE_RE = new RegExp(`${START}(?:sk-[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{30,})(?![A-Za-z0-9_\\-])`, 'g');

const PEM_RE =
  /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g;

const AUTH_HEADER_RE =
  /\b(authorization["']?[ \t]*[:=][ \t]*["']?)(?:((?:bearer|basic|token|digest|apikey)[ \t]+)([^\s"'`,;]+)|([^\s"'`,;]{6,}))/gi;
const BEARER_RE = /\b(bearer[ \t]+)([A-Za-z0-9._~+/\-]{16,}=*)/gi;

// scheme://user:password@host — the user stays, the password goes.
const URL_CRED_RE = /\b([a-z][a-z0-9+.\-]{0,30}:\/\/)([^\s:@/?#"'<>]{0,256}):([^\s@/?#"'<>]{1,256})@/gi;

// NAME = value, NAME: value, "NAME": "value", export NAME=value, --name=value, \"NAME\": \"value\" (JSON in a string).
// The name starts a word: `x-api-key` is one name, never `api-key` inside it.
const ASSIGN_RE = new RegExp(
  '(?<![A-Za-z0-9_.])(?<![A-Za-z0-9_.]-)(\\\\?["\']?)([A-Za-z_][A-Za-z0-9_.\\-]{0,63})\\1([ \\t]*(?::|=(?![=>~]))[ \\t]*)' +
    '(\\\\"[^"\\\\\\r\\n]{0,4096}\\\\"|"(?:[^"\\\\\\r\\n]|\\\\.){0,4096}"|\'[^\'\\r\\n]{0,4096}\'|[^\\s"\'`,;{}\\[\\]()<>\\\\]{1,4096})',
  'g',
);

// --password value, --api-key "value" (the `--flag=value` form is an assignment).
const FLAG_RE =
  /(?<![A-Za-z0-9_\-])(--(?:[A-Za-z0-9]+-)*(?:password|passwd|token|secret|api-key|apikey)[ \t]+)("[^"\r\n]{1,512}"|'[^'\r\n]{1,512}'|[^\s"'`\-][^\s"'`]{0,512})/gi;

// curl -u user:password
const CURL_USER_RE = /((?:^|\s)(?:-u|--user)[ \t=]+["']?)([^\s:'"]{1,128}):([^\s'"]{1,256})/g;

/**
 * A word that every match of AUTH_HEADER_RE, BEARER_RE and FLAG_RE holds, and every ASCII name
 * isSecretName accepts (each SECRET_WORDS entry and SECRET_PAIRS pair contains one), in any case.
 */
const SECRET_HINT = /key|token|secret|pass|pwd|cookie|authorization|bearer/i;

const SECRET_WORDS = new Set([
  'key', 'token', 'secret', 'password', 'passwd', 'pass', 'pwd', 'passphrase', 'apikey', 'secretkey', 'privatekey',
  'authorization', 'cookie',
]);
// Single-word names that are secrets on their own ("key", "pass" and "pwd" alone are too common).
const SOLO_SECRET = new Set(['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'secretkey', 'privatekey', 'authorization', 'cookie']);
const NOT_SECRET_KEY = new Set([
  'public', 'primary', 'foreign', 'sort', 'partition', 'cache', 'idempotency', 'lookup', 'row', 'map', 'range',
  'composite', 'unique', 'i18n', 'translation', 'dedupe', 'dedup', 'shortcut', 'hot', 'object', 'react', 'hash',
]);
const NOT_SECRET_TOKEN = new Set([
  'max', 'min', 'num', 'input', 'output', 'total', 'next', 'page', 'continuation', 'cancellation', 'cancel', 'sync',
  'start', 'end', 'eos', 'bos', 'pad', 'unk', 'sep', 'cls', 'mask', 'special', 'lexer', 'parser',
]);
const SECRET_PAIRS = new Set(['api_key', 'secret_key', 'private_key', 'access_token', 'auth_token', 'client_secret']);

// The same few names (command, file_path, apiKey…) come back in every event: remember the answer.
const knownNames = new Map<string, boolean>();
const KNOWN_NAMES_MAX = 1024;

/** True when a variable/key name says its value is a secret (API_KEY, clientSecret, x-api-key, …). */
export function isSecretName(name: string): boolean {
  let secret = knownNames.get(name);
  if (secret === undefined) {
    secret = classifyName(name);
    if (knownNames.size >= KNOWN_NAMES_MAX) knownNames.clear();
    knownNames.set(name, secret);
  }
  return secret;
}

function classifyName(name: string): boolean {
  if (name.length > 100) return false;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return false;
  for (let i = 0; i + 1 < words.length; i++) {
    if (SECRET_PAIRS.has(`${words[i]}_${words[i + 1]}`)) return true;
  }
  const last = words[words.length - 1];
  if (!SECRET_WORDS.has(last)) return false;
  if (words.length === 1) return SOLO_SECRET.has(last);
  const prev = words[words.length - 2];
  if (last === 'key' && NOT_SECRET_KEY.has(prev)) return false;
  if (last === 'token' && NOT_SECRET_TOKEN.has(prev)) return false;
  return true;
}

const PLACEHOLDER_WORDS = new Set([
  'true', 'false', 'null', 'none', 'nil', 'undefined', 'string', 'number', 'boolean', 'str', 'int', 'bool', 'any',
  'unknown', 'optional', 'required', 'object', 'bytes', 'secretstr',
]);

/** Values that are clearly not a secret: references, placeholders, types, already redacted. */
function isPlaceholderValue(v: string): boolean {
  if (v === '' || v.startsWith(REDACTED)) return true;
  if (/^(?:\$|%|\{\{|<|process\.env|os\.environ|import\.meta\.env|env\.)/.test(v)) return true;
  if (/^\*+$/.test(v)) return true;
  return PLACEHOLDER_WORDS.has(v.toLowerCase());
}

/** Random-looking: at least two of lower case, upper case, digits. Keeps plain words out. */
function looksRandom(s: string): boolean {
  return (/[a-z]/.test(s) ? 1 : 0) + (/[A-Z]/.test(s) ? 1 : 0) + (/[0-9]/.test(s) ? 1 : 0) >= 2;
}

// Words that follow "password:" in prose, never a password worth hiding.
const PROSE_WORDS = new Set([
  'a', 'an', 'the', 'then', 'it', 'is', 'are', 'was', 'be', 'and', 'or', 'to', 'must', 'should', 'will', 'can', 'field',
  'please', 'enter', 'here', 'below', 'above', 'see', 'use', 'type', 'yes', 'no', 'not', 'set', 'empty', 'missing', 'invalid',
]);
// What follows a type in an annotation: `token: Token;`, `key: Key | null`, `(secret: Secret)`.
const TYPE_END = /[ \t]*[;,)|}>[=]/y;

function unquote(v: string): { inner: string; open: string; close: string } {
  if (v.startsWith('\\"')) return { inner: v.slice(2, -2), open: '\\"', close: '\\"' };
  if (v.startsWith('"') || v.startsWith("'")) return { inner: v.slice(1, -1), open: v[0], close: v[0] };
  return { inner: v, open: '', close: '' };
}

function redactAssignment(m: string, q: string, name: string, sep: string, value: string, offset: number, all: string): string {
  // The name is ASCII (ASSIGN_RE), so lower-casing cannot create a hint word the test missed.
  if (!SECRET_HINT.test(name) || !isSecretName(name)) return m;
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'cookie') return m; // header lines have their own rule
  const { inner, open, close } = unquote(value);
  if (isPlaceholderValue(inner.trim())) return m;
  if (!open) {
    if (all[offset + m.length] === '(') return m; // a function call: apiKey = getKey()
    if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(inner)) return m; // config.apiKey
    if (sep.includes(':')) {
      // "the password: then press enter" in prose; `token: Token;` in a type annotation.
      if (PROSE_WORDS.has(inner.toLowerCase())) return m;
      TYPE_END.lastIndex = offset + m.length;
      if (/^[A-Z][A-Za-z0-9]*$/.test(inner) && TYPE_END.test(all)) return m;
    }
  }
  return `${q}${name}${q}${sep}${open}${REDACTED}${close}`;
}

/**
 * Replaces secret-shaped strings with [REDACTED]. Idempotent.
 *
 * Most text holds no secret, so a pattern runs only when the text holds what every match of it
 * must contain (a cheap scan): a literal such as `://` or `-u`, or a SECRET_HINT word. A
 * replacement only swaps text for [REDACTED], which holds no hint word, so one SECRET_HINT test
 * serves the four steps it guards.
 */
export function redactSecrets(text: string): string {
  if (typeof text !== 'string' || text.length < 6) return text;
  let s = text;
  if (s.includes('PRIVATE KEY')) s = s.replace(PEM_RE, REDACTED);
  s = s.replace(STRICT_RE, REDACTED);
  if (s.includes('sk-') || s.includes('hf_')) s = s.replace(LOOSE_RE, (m) => (looksRandom(m.slice(3)) ? REDACTED : m));
  if (s.includes('://') && s.includes('@')) {
    s = s.replace(URL_CRED_RE, (m, scheme: string, user: string, pass: string) =>
      pass === REDACTED || isPlaceholderValue(pass) ? m : `${scheme}${user}:${REDACTED}@`,
    );
  }
  if (SECRET_HINT.test(s)) {
    s = s.replace(AUTH_HEADER_RE, (m, head: string, kind: string | undefined, v1: string | undefined, v2: string | undefined) =>
      isPlaceholderValue(v1 ?? v2 ?? '') ? m : `${head}${kind ?? ''}${REDACTED}`,
    );
    s = s.replace(BEARER_RE, (m, head: string, value: string) => (looksRandom(value) ? `${head}${REDACTED}` : m));
    s = s.replace(ASSIGN_RE, redactAssignment as (substring: string, ...args: unknown[]) => string);
    s = s.replace(FLAG_RE, (m, flag: string, value: string) => {
      const { inner, open, close } = unquote(value);
      return isPlaceholderValue(inner) ? m : `${flag}${open}${REDACTED}${close}`;
    });
  }
  if (s.includes('-u')) {
    s = s.replace(CURL_USER_RE, (m, head: string, user: string, pass: string) =>
      isPlaceholderValue(pass) ? m : `${head}${user}:${REDACTED}`,
    );
  }
  return s;
}
