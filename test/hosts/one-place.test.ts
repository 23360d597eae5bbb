/**
 * A host lives in one place: src/hosts/<id>/ (its facts, its dialect, its install module) and one
 * line of src/hosts/registry.ts. No other source file names a host id in code (comments may).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { HOST_FACTS } from '../../src/hosts/registry.js';
import { HOST_IDS, type HostId } from '../../src/shared/hosts.js';
import { getAdapter } from '../../src/hook/adapters/index.js';
import { loadHostModule } from '../../src/npx-cli/hosts/modules.js';
import { REPO_ROOT } from '../helpers/temp.js';

const SRC = join(REPO_ROOT, 'src');
const HOSTS_DIR = join(SRC, 'hosts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The host ids a file may name: any inside src/hosts/, its own host's in a plugin's folder. */
function mayName(file: string): (id: string) => boolean {
  const rel = relative(SRC, file).split('\\').join('/');
  if (rel.startsWith('hosts/')) return () => true;
  const plugin = /^plugins\/([^/]+)\//.exec(rel)?.[1];
  return (id) => plugin !== undefined && (plugin === id || plugin.startsWith(`${id}-`));
}

/** String literals in code (quoted object keys and literal types included) equal to a host id, as `file:line "id"`. */
function namedIds(file: string, allowed: (id: string) => boolean, text = readFileSync(file, 'utf8')): string[] {
  const ids = new Set<string>(HOST_IDS);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const hit = (node: ts.Node, text: string) => {
    if (!ids.has(text) || allowed(text)) return;
    out.push(`${relative(REPO_ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} "${text}"`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) hit(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every relative import of a source file (type-only and `import()` with a literal included). */
function importsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const add = (spec: string) => {
    if (!spec.startsWith('.')) return;
    const p = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (existsSync(p)) out.push(p);
  };
  const visit = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) add(n.moduleSpecifier.text);
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) add(n.arguments[0].text);
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) add(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The files that sit on an import loop (strongly connected components of more than one file). */
function filesOnLoops(files: string[]): Set<string> {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out = new Set<string>();
  let next = 0;
  const strong = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) scc.forEach((f) => out.add(f));
  };
  for (const f of files) if (!index.has(f)) strong(f);
  return out;
}

describe('one place per host', () => {
  it('no source file outside src/hosts/ names a host id (a plugin may name its own host)', () => {
    const found = sourceFiles(SRC).flatMap((f) => namedIds(f, mayName(f)));
    expect(found).toEqual([]);
  });

  it('the check finds a host id where one is named', () => {
    const code = "f('goose');\nconst m = { 'claude-code': 1, cursor: 2 };\ntype H = `pi` | 'omp';\n// 'codex' in a comment";
    expect(namedIds(join(SRC, 'x.ts'), () => false, code)).toEqual(['src/x.ts:1 "goose"', 'src/x.ts:2 "claude-code"', 'src/x.ts:3 "pi"', 'src/x.ts:3 "omp"']);
    expect(namedIds(join(SRC, 'plugins', 'pi-base', 'x.ts'), mayName(join(SRC, 'plugins', 'pi-base', 'x.ts')), code)).toEqual(['src/plugins/pi-base/x.ts:1 "goose"', 'src/plugins/pi-base/x.ts:2 "claude-code"', 'src/plugins/pi-base/x.ts:3 "omp"']);
  });

  it('no file of src/ sits on an import loop (type imports count)', () => {
    const looped = [...filesOnLoops(sourceFiles(SRC))].map((f) => relative(REPO_ROOT, f).split('\\').join('/'));
    expect(looped).toEqual([]);
  });

  it('every host folder is registered, and holds its facts, its dialect (when it has hooks) and its install module', async () => {
    const folders = readdirSync(HOSTS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(folders).toEqual([...HOST_IDS].sort());
    for (const facts of HOST_FACTS) {
      const id: HostId = facts.id;
      const dir = join(HOSTS_DIR, id);
      expect(existsSync(join(dir, `${id}-facts.ts`)), `${id}-facts.ts`).toBe(true);
      expect(existsSync(join(dir, `${id}-install.ts`)), `${id}-install.ts`).toBe(true);
      expect(existsSync(join(dir, `${id}-hooks.ts`)), `${id}-hooks.ts exists exactly when its facts say hooks`).toBe(!!facts.hooks);
      expect((await loadHostModule(id)).id).toBe(id);
      expect((await getAdapter(id)).host, `${id}'s hook adapter`).toBe(id);
    }
  });
});
