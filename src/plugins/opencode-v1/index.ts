/**
 * claude-mem for OpenCode 1.x (plugin API V1): installed as `~/.config/opencode/plugins/claude-mem.js`
 * with `claude-mem.json` beside it. OpenCode calls every exported function as a plugin, so this
 * module exports exactly one. See ./hooks.ts for what each hook records.
 */
import { createPluginRuntime } from '../shared/runtime.js';
import { createV1Hooks, type V1PluginInput } from './hooks.js';

export default async function ClaudeMemPlugin(input: V1PluginInput) {
  try {
    return createV1Hooks(createPluginRuntime({ host: 'opencode', moduleUrl: import.meta.url }), input ?? {});
  } catch {
    // Whatever went wrong, the host starts without us rather than not at all.
    return {};
  }
}
