/**
 * claude-mem for OpenCode 2.x (plugin API V2): a directory plugin,
 * `~/.config/opencode/plugins/claude-mem/` holding this bundle as `index.js`, its `package.json`
 * and `claude-mem.json`. The default export is what `Plugin.define({ id, setup })` returns (that
 * helper only returns its argument), so nothing is imported from `@opencode/plugin`.
 */
import { createPluginRuntime } from '../shared/runtime.js';
import type { PluginContextLike } from './host-api.js';
import { setupV2 } from './setup.js';

export default {
  id: 'claude-mem',
  async setup(ctx: PluginContextLike) {
    try {
      return await setupV2(createPluginRuntime({ host: 'opencode', moduleUrl: import.meta.url }), ctx);
    } catch {
      // The host starts without us rather than not at all.
      return undefined;
    }
  },
};
