import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigConflictError, planChanges, type Change } from '../../src/npx-cli/engine/index.js';
import { install, lifeCycle, read, setup, uninstall, write } from './helpers.js';

const block = (file: string, content: string, id = 'context'): Change => ({ kind: 'text-block', file, host: 'copilot', id, content });

describe('text-block', () => {
  const AGENTS = '# Team rules\n\nUse pnpm.\n';

  it('appends a marked block after a blank line and removes it exactly', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'copilot-instructions.md'), AGENTS);
    await lifeCycle(ctx, file, AGENTS, [block(file, 'Search memory with mem_search.\n')],
      '# Team rules\n\nUse pnpm.\n\n<!-- claude-mem:begin context -->\nSearch memory with mem_search.\n<!-- claude-mem:end context -->\n');
  });

  it('keeps CRLF and a missing final newline', async () => {
    const ctx = setup();
    const original = '# Rules\r\n\r\nBe brief.';
    const file = write(join(ctx.dir, 'WARP.md'), original);
    await lifeCycle(ctx, file, original, [block(file, 'line one\nline two')],
      '# Rules\r\n\r\nBe brief.\r\n\r\n<!-- claude-mem:begin context -->\r\nline one\r\nline two\r\n<!-- claude-mem:end context -->');
  });

  it('updates the block in place, keeps the user\'s text around it, and removes only the block', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'AGENTS.md'), AGENTS);
    await install(ctx, [block(file, 'v1')]);
    write(file, `${read(file)}\n## Added later\n`);
    await install(ctx, [block(file, 'v2\nmore')]);
    expect(read(file)).toBe('# Team rules\n\nUse pnpm.\n\n<!-- claude-mem:begin context -->\nv2\nmore\n<!-- claude-mem:end context -->\n\n## Added later\n');
    await uninstall(ctx);
    expect(read(file)).toBe(`${AGENTS}\n## Added later\n`);
  });

  it('uses # markers for other text files', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'notes.txt'), 'x\n');
    await lifeCycle(ctx, file, 'x\n', [block(file, 'y')], 'x\n\n# claude-mem:begin context\ny\n# claude-mem:end context\n');
  });

  it('refuses a begin marker without its end marker', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'AGENTS.md'), 'a\n<!-- claude-mem:begin context -->\nb\n');
    const [plan] = await planChanges([block(file, 'c')]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.fix).toContain('<!-- claude-mem:end context -->');
  });

  it('creates a missing file and deletes it (not leaving it empty) on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, '.roo', 'rules', 'claude-mem.md');
    await lifeCycle(ctx, file, null, [block(file, 'hello')], '<!-- claude-mem:begin context -->\nhello\n<!-- claude-mem:end context -->\n');
    expect(existsSync(join(ctx.dir, '.roo'))).toBe(false);
  });
});

describe('file', () => {
  const plugin = (file: string, content = 'export default {};\n', mode?: number): Change => ({ kind: 'file', file, host: 'opencode', content, ...(mode !== undefined && { mode }) });

  it('creates a file with its mode and folders, and removes them on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'plugins', 'claude-mem', 'index.js');
    const { first } = await lifeCycle(ctx, file, null, [plugin(file, '#!/usr/bin/env node\n', 0o755)], '#!/usr/bin/env node\n');
    expect(first.plan[0].mode).toBe(0o755);
    expect(existsSync(join(ctx.dir, 'plugins'))).toBe(false);
  });

  it('sets the mode on create', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'hook.sh');
    await install(ctx, [plugin(file, 'x', 0o750)]);
    expect(statSync(file).mode & 0o777).toBe(0o750);
  });

  it('leaves a file the user changed after install, and says so', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'claude-mem.js');
    await install(ctx, [plugin(file)]);
    write(file, 'export default { mine: true };\n');
    const r = await uninstall(ctx);
    expect(read(file)).toBe('export default { mine: true };\n');
    expect(r.files[0].notes).toEqual(['changed after install; left as is']);
  });

  it('puts back a file it replaced, from the backup', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'claude-mem.js'), 'old plugin\n');
    chmodSync(file, 0o600);
    await install(ctx, [plugin(file)]);
    expect(read(file)).toBe('export default {};\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(ctx.backupsDir)).toHaveLength(1);
    await uninstall(ctx);
    expect(read(file)).toBe('old plugin\n');
  });
});
