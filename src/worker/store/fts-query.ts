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
const TOKEN_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

function tokens(text: string): string[] {
  return (text.match(TOKEN_RE) ?? []).map((t) => t.slice(0, MAX_TOKEN_CHARS));
}

function term(words: string[], prefix: boolean): string | null {
  if (!words.length) return null;
  return `"${words.join(' ')}"${prefix ? '*' : ''}`;
}

/** The FTS5 expression for `input`, or null when it holds no searchable word. */
export function toFtsQuery(input: string): string | null {
  const terms: string[] = [];
  // Split into "quoted phrases" and bare words; an unbalanced quote runs to the end.
  const parts = input.normalize('NFC').match(/"[^"]*"?|[^\s"]+/g) ?? [];
  for (const part of parts) {
    if (terms.length >= MAX_TERMS) break;
    let t: string | null;
    if (part.startsWith('"')) {
      const body = part.slice(1).replace(/"$/, '');
      t = term(tokens(body), /\*\s*$/.test(body));
    } else {
      t = term(tokens(part), /[\p{L}\p{N}\p{M}\p{Co}]\*+$/u.test(part));
    }
    if (t) terms.push(t);
  }
  return terms.length ? terms.join(' ') : null;
}
