import { describe, expect, it } from 'vitest';
import { HOST_ALIASES, HOST_IDS, HOST_LABELS } from '../../src/shared/hosts.js';
import { loadHostModule, loadHostModules } from '../../src/npx-cli/hosts/modules.js';

describe('host registry', () => {
  it('lists all 18 hosts once, in HOST_IDS order, with their labels and aliases', async () => {
    const modules = await loadHostModules();
    expect(modules.map((m) => m.id)).toEqual([...HOST_IDS]);
    for (const m of modules) {
      expect(await loadHostModule(m.id)).toBe(m);
      expect(m.label).toBe(HOST_LABELS[m.id]);
      for (const alias of m.aliases) expect(HOST_ALIASES[alias], `${m.id} alias ${alias}`).toBe(m.id);
      expect(typeof m.detect).toBe('function');
      expect(typeof m.plan).toBe('function');
    }
  });
});
