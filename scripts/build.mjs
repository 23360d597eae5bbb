// Builds dist/: a tiny dispatcher (bin.js), the hook as its own dependency-free bundle,
// and the CLI/worker/bench sharing chunks. Runtime dependencies stay in node_modules.
import { build } from 'esbuild';
import { chmodSync, existsSync, readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// dist/ is not wiped: several builds may run side by side during development; CI starts clean.

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
  entryPoints: { bin: 'src/bin.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
});

// The hook runs on every tool call inside someone else's agent: one small file, no packages.
await build({
  ...common,
  entryPoints: { hook: 'src/hook/main.ts' },
  outdir: 'dist',
  minify: true,
  external: [],
  metafile: false,
});

const entries = { cli: 'src/npx-cli/main.ts', worker: 'src/worker/main.ts' };
if (existsSync('bench/main.ts')) entries.bench = 'bench/main.ts';
await build({
  ...common,
  entryPoints: entries,
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
});

chmodSync('dist/bin.js', 0o755);
