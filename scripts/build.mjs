// Builds dist/: a tiny dispatcher (bin.js), the hook as its own dependency-free bundle,
// and the CLI/worker/bench sharing chunks. Runtime dependencies stay in node_modules (commander aside, see below).
//
// dist/ is CommonJS (its own package.json says so): hosts run `node dist/bin.js hook …` on every
// tool call, and an ES module entry point costs node's ES module loader and its thread pool at
// each start (about 10 ms, measured). The CLI, the worker and the benchmarks stay ES modules
// (.mjs); worker.js and bench.js, the paths people and tests run, start them.
import { build as esbuild } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// dist/ is not wiped: several builds may run side by side during development; CI starts clean.
mkdirSync('dist', { recursive: true });

/** Files this build wrote, relative to dist/ (dist/build-files.json: what install copies). */
const written = new Set();

/**
 * Every file is replaced by a rename, never rewritten in place: a process running the previous
 * build, or an installed copy of the program that hard-links its files (install/runtime.ts),
 * keeps whole files, and nobody reads a half-written one.
 */
function put(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
  written.add(relative(resolve('dist'), resolve(path)).split('\\').join('/'));
}

async function build(options) {
  const result = await esbuild({ ...options, write: false });
  for (const f of result.outputFiles) put(f.path, f.contents);
  return result;
}

put('dist/package.json', '{ "type": "commonjs" }\n');

const common = {
  platform: 'node',
  target: 'node20',
  format: 'esm',
  bundle: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __CLAUDE_MEM_VERSION__: JSON.stringify(version) },
};

await build({
  ...common,
  format: 'cjs',
  entryPoints: { bin: 'src/bin.ts' },
  outdir: 'dist',
  external: ['./cli.mjs'],
  banner: { js: '#!/usr/bin/env node' },
});

// The launcher hosts run (copied to <data>/runtime/claude-mem.cjs by install): node built-ins only,
// and .cjs so that no package.json around the data directory can make it an ES module.
await build({
  ...common,
  format: 'cjs',
  entryPoints: ['src/launcher.ts'],
  outfile: 'dist/launcher.cjs',
  external: [],
});

// The hook runs on every tool call inside someone else's agent: one small file, no packages.
await build({
  ...common,
  format: 'cjs',
  entryPoints: { hook: 'src/hook/main.ts' },
  outdir: 'dist',
  minify: true,
  external: [],
  metafile: false,
  // worker-start.ts finds dist/worker.js through __filename here, import.meta.url in the ES modules.
  logOverride: { 'empty-import-meta': 'silent' },
  // Modules loaded on first use (node:http, node:child_process) are required: an import() would
  // start the ES module loader, and the code cache (src/code-cache.ts) runs without one.
  supported: { 'dynamic-import': false },
});

// The viewer's page script and style go inside the worker: nothing to find on disk at run time.
const viewerJs = await esbuild({
  entryPoints: ['src/worker/viewer/client/main.ts'], bundle: true, format: 'iife', minify: true, write: false,
  target: 'chrome100', legalComments: 'none', logLevel: 'warning',
});
const viewerCss = await esbuild({ entryPoints: ['src/worker/viewer/client/style.css'], bundle: true, minify: true, write: false, logLevel: 'warning' });
const viewerDefine = {
  __CLAUDE_MEM_VIEWER_JS__: JSON.stringify(viewerJs.outputFiles[0].text),
  __CLAUDE_MEM_VIEWER_CSS__: JSON.stringify(viewerCss.outputFiles[0].text),
};

const entries = { cli: 'src/npx-cli/main.ts', worker: 'src/worker/main.ts' };
if (existsSync('bench/main.ts')) entries.bench = 'bench/main.ts';
if (existsSync('bench/recall/main.ts')) entries['bench-recall'] = 'bench/recall/main.ts';
// commander is bundled: every command parses its arguments with it, and loaded from node_modules
// (a CommonJS package behind an ESM wrapper) it alone costs about as much as node's own start-up.
// Its require() of node built-ins needs a real require in these ESM files, hence the banner.
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
// Pure-JS packages made of many small ES modules are bundled: loading them file by file costs the
// worker and CLI tens of milliseconds at every start.
const bundled = new Set(['commander', 'zod', '@modelcontextprotocol/sdk']);
const runtimeDeps = Object.keys(dependencies).filter((d) => !bundled.has(d));
// playwright-core: only the viewer benchmark drives a browser, from node_modules (a dev dependency).
const external = [...runtimeDeps, 'playwright-core'].flatMap((d) => [d, `${d}/*`]);
// The packages dist/ loads at run time: what install copies next to the program (the bundled ones
// are inside dist/ already). See src/npx-cli/install/runtime-files.ts.
put('dist/runtime-dependencies.json', `${JSON.stringify(runtimeDeps, null, 2)}\n`);
// commander requires node:child_process when it loads, only to spawn stand-alone executable
// subcommands (claude-mem has none): it gets a stand-in that loads the module on first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};
// The host modules found by folder (src/hosts/<id>/<id>-install.ts, <id>-hooks.ts) are loaded by
// an import() with a pattern, which esbuild splits into one chunk per file: loading dozens of small
// ES modules one by one made install and doctor slower. In the CLI build each pattern becomes one
// module that holds every host's file, so a command that plans hosts loads one chunk per kind.
const HOST_PATTERNS = [
  { file: 'src/npx-cli/hosts/modules.ts', kind: 'install' },
  { file: 'src/hook/adapters/index.ts', kind: 'hooks' },
];
const hostFolders = {
  name: 'host-folders',
  setup(b) {
    for (const { file, kind } of HOST_PATTERNS) {
      const call = `import(\`../../hosts/\${id}/\${id}-${kind}.ts\`)`;
      b.onLoad({ filter: new RegExp(`${file.replace(/[/.]/g, (c) => `\\${c}`)}$`) }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(call)) throw new Error(`${file} no longer loads host modules with ${call}: update scripts/build.mjs`);
        return { contents: source.replace(call, `import('host-folders:${kind}').then((all) => all.default[id] ?? {})`), loader: 'ts' };
      });
    }
    b.onResolve({ filter: /^host-folders:/ }, (args) => ({ path: args.path.slice('host-folders:'.length), namespace: 'host-folders' }));
    b.onLoad({ filter: /.*/, namespace: 'host-folders' }, (args) => {
      const ids = readdirSync('src/hosts').filter((id) => existsSync(join('src/hosts', id, `${id}-${args.path}.ts`))).sort();
      const lines = ids.map((id, i) => `import * as m${i} from ${JSON.stringify(resolve('src/hosts', id, `${id}-${args.path}.ts`))};`);
      return { contents: `${lines.join('\n')}\nexport default { ${ids.map((id, i) => `${JSON.stringify(id)}: m${i}`).join(', ')} };\n`, loader: 'ts', resolveDir: resolve('src/hosts') };
    });
  },
};
await build({
  ...common,
  entryPoints: entries,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external,
  plugins: [lazyChildProcess, hostFolders],
  define: { ...common.define, ...viewerDefine },
  banner: { js: "import { createRequire as __cmCreateRequire } from 'node:module';\nconst require = __cmCreateRequire(import.meta.url);" },
});
for (const name of ['worker', 'bench', 'bench-recall']) {
  if (entries[name]) put(`dist/${name}.js`, `// Starts dist/${name}.mjs (see scripts/build.mjs).\nimport('./${name}.mjs');\n`);
}

chmodSync('dist/bin.js', 0o755);

// Native plugins: each src/plugins/<host>/index.ts becomes one self-contained file in
// dist/plugins/<host>/ (node built-ins only), next to copies of its static files (manifests).
// They are ES modules: dist/plugins/ says so for the plugins that bring no package.json.
const pluginRoot = 'src/plugins';
if (existsSync(pluginRoot)) {
  mkdirSync(join('dist', 'plugins'), { recursive: true });
  put(join('dist', 'plugins', 'package.json'), '{ "type": "module" }\n');
  for (const host of readdirSync(pluginRoot)) {
    const dir = join(pluginRoot, host);
    if (!statSync(dir).isDirectory() || !existsSync(join(dir, 'index.ts'))) continue;
    const out = join('dist', 'plugins', host);
    mkdirSync(out, { recursive: true });
    await build({ ...common, entryPoints: [join(dir, 'index.ts')], outfile: join(out, 'index.js'), external: [] });
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.ts') && statSync(join(dir, file)).isFile()) put(join(out, file), readFileSync(join(dir, file)));
    }
  }
}

put('dist/build-files.json', `${JSON.stringify([...written, 'build-files.json'].sort(), null, 2)}\n`);
