/**
 * Turns what a user typed into a safe FTS5 MATCH expression. User text is never passed through:
 * every term becomes a double-quoted string of word characters, so quotes, parentheses, `NEAR`,
 * `AND`, column filters and stray `*` can never produce an FTS5 syntax error.
 *
 * - words are ANDed:            auth token      -> "auth" "token"
 * - a trailing * is a prefix:   migr*           -> "migr"*
 * - "quoted text" is a phrase:  "login flow"    -> "login flow"
 * - punctuated words stay tight: auth.ts        -> "auth ts" (a phrase, as the index sees it)
 */

const MAX_TERMS = 16;
const MAX_TOKEN_CHARS = 64;
// Word characters as the unicode61 tokenizer sees them (letters, numbers, marks, private use).
export const WORD_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

export interface QueryPhrase {
  tokens: string[];
  /** The last token is a prefix (`migr*`). */
  prefix: boolean;
}

function tokens(text: string): string[] {
  return (text.match(WORD_RE) ?? []).map((t) => t.slice(0, MAX_TOKEN_CHARS));
}

/** The phrases of `input`, in order; at most 16, none empty. */
export function parseQuery(input: string): QueryPhrase[] {
  const phrases: QueryPhrase[] = [];
  // Split into "quoted phrases" and bare words; an unbalanced quote runs to the end.
  const parts = String(input).normalize('NFC').match(/"[^"]*(?:"\*?)?|[^\s"]+/g) ?? [];
  for (const part of parts) {
    if (phrases.length >= MAX_TERMS) break;
    const quoted = part.startsWith('"');
    const body = quoted ? part.slice(1).replace(/"\*?$/, '') : part;
    const words = tokens(body);
    if (!words.length) continue;
    const prefix = quoted ? /"\*$|\*\s*$/.test(part) : /[\p{L}\p{N}\p{M}\p{Co}]\*+$/u.test(part);
    phrases.push({ tokens: words, prefix });
  }
  return phrases;
}

/** One phrase in FTS5 syntax: `"a b"` or `"a"*`. Tokens hold word characters only, so no escaping is needed. */
export function phraseToFts(p: QueryPhrase): string {
  return `"${p.tokens.join(' ')}"${p.prefix ? '*' : ''}`;
}

/** The FTS5 expression for `input` (its phrases, ANDed), or null when it holds no searchable word. */
export function toFtsQuery(input: string): string | null {
  const terms = parseQuery(input).map(phraseToFts);
  return terms.length ? terms.join(' ') : null;
}
