/** Deterministic tags: what kind of work a command or a file suggests. */

const COMMAND_TAGS: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:test|tests|vitest|jest|mocha|pytest|ava|tap|phpunit|rspec|ctest|playwright|cypress)\b|\bgo test\b|\bcargo (?:test|nextest)\b/, 'test'],
  [/\b(?:build|tsc|webpack|rollup|esbuild|make|cmake|gradle|mvn|bazel|compile)\b/, 'build'],
  [/(?:^|[\s;&|(])git\s/, 'git'],
  [/\b(?:npm|pnpm|yarn|bun) (?:i|install|ci|add)\b|\bpip3? install\b|\buv (?:add|sync|pip install)\b|\b(?:apt|apt-get|brew|dnf|yum|apk) (?:install|add)\b|\bcargo (?:add|install)\b|\bgo (?:get|install)\b|\bgem install\b|\bpoetry (?:add|install)\b/, 'install'],
  [/\b(?:eslint|prettier|ruff|flake8|pylint|clippy|golangci-lint|biome|stylelint|lint)\b/, 'lint'],
  [/\b(?:tsc --noemit|tsc -p [^\s]+ --noemit|mypy|pyright|typecheck)\b/, 'typecheck'],
  [/\b(?:docker|podman|docker-compose|kubectl|helm)\b/, 'container'],
  [/\b(?:deploy|terraform|pulumi|vercel|netlify|fly)\b/, 'deploy'],
  [/\b(?:curl|wget)\b/, 'network'],
];

export function commandConcepts(command: string): string[] {
  const c = command.toLowerCase();
  return COMMAND_TAGS.filter(([re]) => re.test(c)).map(([, tag]) => tag);
}

const EXT_TAGS: Readonly<Record<string, string>> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', rs: 'rust', go: 'go', java: 'java', kt: 'kotlin', rb: 'ruby', php: 'php',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cs: 'csharp', swift: 'swift',
  sh: 'shell', bash: 'shell', zsh: 'shell', sql: 'sql', css: 'styles', scss: 'styles',
  html: 'html', vue: 'vue', svelte: 'svelte',
  md: 'docs', mdx: 'docs', rst: 'docs', txt: 'docs',
  json: 'config', jsonc: 'config', yaml: 'config', yml: 'config', toml: 'config', ini: 'config', env: 'config',
  ipynb: 'notebook', lock: 'dependencies',
};

export function fileConcepts(path: string): string[] {
  const tags: string[] = [];
  const base = path.split(/[\\/]/).pop() ?? path;
  const lower = base.toLowerCase();
  const dot = lower.lastIndexOf('.');
  const ext = dot > 0 ? lower.slice(dot + 1) : '';
  const tag = EXT_TAGS[ext];
  if (tag) tags.push(tag);
  if (/(?:^|[\\/])(?:test|tests|__tests__|spec)[\\/]|\.(?:test|spec)\.[a-z]+$|^test_.*\.py$/i.test(path)) tags.push('test');
  if (/^(?:package\.json|package-lock\.json|pnpm-lock\.yaml|yarn\.lock|cargo\.toml|go\.mod|requirements.*\.txt|pyproject\.toml)$/.test(lower)) {
    tags.push('dependencies');
  }
  if (/^(?:readme|changelog|contributing|agents|claude)(?:\.[a-z]+)?$/.test(lower)) tags.push('docs');
  return tags;
}

/** Merged, deduplicated, at most `max`. */
export function mergeConcepts(max: number, ...lists: ReadonlyArray<readonly string[]>): string[] {
  const out = new Set<string>();
  for (const list of lists) for (const c of list) if (out.size < max) out.add(c);
  return [...out];
}
