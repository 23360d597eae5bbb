/**
 * The baseline: plain Okapi BM25 (k1 = 1.2, b = 0.75) over each session's raw text (prompts,
 * every assistant message, commands and their output, files read and edited), lowercase
 * alphanumeric tokens, no stemming, no stop words. What any search over the same material can
 * reach without knowing anything about it.
 */
const K1 = 1.2;
const B = 0.75;

export function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 1);
}

interface Doc {
  id: string;
  group: string | undefined;
  length: number;
  tf: Map<string, number>;
}

export class Bm25Index {
  private readonly docs: Doc[] = [];

  add(id: string, group: string | undefined, text: string): void {
    const tf = new Map<string, number>();
    const tokens = tokenize(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    this.docs.push({ id, group, length: tokens.length, tf });
  }

  /** Session ids by score, best first, among the documents of `group` (all when undefined). */
  search(query: string, group: string | undefined, limit: number): string[] {
    const docs = group === undefined ? this.docs : this.docs.filter((d) => d.group === group);
    if (!docs.length) return [];
    const df = new Map<string, number>();
    const terms = [...new Set(tokenize(query))];
    for (const t of terms) df.set(t, docs.reduce((n, d) => n + (d.tf.has(t) ? 1 : 0), 0));
    const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
    const scored: { id: string; score: number }[] = [];
    for (const d of docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const n = df.get(t) ?? 0;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg)));
      }
      if (score > 0) scored.push({ id: d.id, score });
    }
    scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return scored.slice(0, limit).map((s) => s.id);
  }
}
