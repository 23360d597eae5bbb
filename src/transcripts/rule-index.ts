/**
 * Rules indexed by the record path most of them pin with equals/in, so a record only meets the
 * rules it can match (and those without the part the index already checked).
 */
import { compilePath, type CompiledPath } from './json-path.js';
import { compileMatch, type Predicate } from './match.js';
import type { MatchRule } from './types.js';

interface RuleIndex<R> {
  /** The indexed record path; absent when no path is pinned by more than one rule. */
  path?: CompiledPath;
  byValue: Map<unknown, R[]>;
  /** Rules that do not pin the indexed path (all rules when there is no index). */
  unpinned: R[];
}

/** The required parts of a match: the rule itself, or each rule of its `all`. */
function requiredParts(rule: MatchRule | undefined): MatchRule[] {
  if (!rule) return [];
  const r = rule as Record<string, unknown>;
  return Array.isArray(r.all) ? (r.all as MatchRule[]) : [rule];
}

/** An equals/in of primitives on one record path: [the path as a key, the values it accepts]. */
function discriminant(part: MatchRule): [string, unknown[]] | null {
  const sub = part as Record<string, unknown>;
  if (typeof sub.path !== 'string') return null;
  let p: CompiledPath;
  try { p = compilePath(sub.path); } catch { return null; }
  if (p.root !== 'record' || p.wild) return null;
  const key = p.segments.map(String).join('\u0000');
  const prim = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if ('equals' in sub && prim(sub.equals)) return [key, [sub.equals]];
  if (Array.isArray(sub.in) && (sub.in as unknown[]).every(prim)) return [key, sub.in as unknown[]];
  return null;
}

/** Required equals/in on record paths, used to jump straight to the rules a record can match. */
function discriminants(rule: MatchRule | undefined): Array<[string, unknown[]]> {
  return requiredParts(rule).flatMap((part) => {
    const d = discriminant(part);
    return d ? [d] : [];
  });
}

/** The match of a rule reached through the index at `value`: without the parts the index already checked. */
function afterIndex(rule: MatchRule | undefined, key: string, value: unknown): Predicate {
  const rest = requiredParts(rule).filter((part) => {
    const d = discriminant(part);
    return !(d && d[0] === key && d[1].includes(value));
  });
  return compileMatch(rest.length ? ({ all: rest } as MatchRule) : undefined);
}

/** `rules[i]` is compiled from `matches[i]`. */
export function indexRules<R extends { match: Predicate }>(rules: R[], matches: Array<MatchRule | undefined>): RuleIndex<R> {
  const counts = new Map<string, number>();
  const perRule = matches.map((m) => discriminants(m));
  perRule.forEach((ds) => new Set(ds.map(([k]) => k)).forEach((k) => counts.set(k, (counts.get(k) ?? 0) + 1)));
  let indexKey: string | undefined;
  for (const [k, n] of counts) if (n > 1 && (!indexKey || n > (counts.get(indexKey) ?? 0))) indexKey = k;
  const byValue = new Map<unknown, R[]>();
  if (!indexKey) return { byValue, unpinned: rules };
  const key = indexKey;
  const path: CompiledPath = { source: key, root: 'record', segments: key.split('\u0000').map((s) => (/^-?\d+$/.test(s) ? Number(s) : s)), wild: false };
  const unpinned = rules.filter((_, i) => !perRule[i].some(([k]) => k === key));
  const values = new Set<unknown>();
  perRule.forEach((ds) => ds.forEach(([k, vs]) => k === key && vs.forEach((v) => values.add(v))));
  for (const v of values) {
    byValue.set(v, rules.flatMap((r, i) => {
      if (unpinned.includes(r)) return [r];
      const pinned = perRule[i].some(([k, vs]) => k === key && vs.includes(v));
      return pinned ? [{ ...r, match: afterIndex(matches[i], key, v) }] : [];
    }));
  }
  return { path, byValue, unpinned };
}
