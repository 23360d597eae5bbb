/**
 * The recall tools in OpenCode V1's plugin `tool` hook. V1 takes `{description, args, execute}`;
 * `args` may hold plain JSON Schema values instead of Zod (confirmed in 1.18.33's tool registry),
 * but then every property is marked required, so `tool.definition` puts back the real schema
 * (optional arguments stay optional).
 */
import type { PluginRuntime } from '../shared/runtime.js';
import { isRecallToolName } from '../shared/recall-specs.js';

export interface V1ToolContext {
  sessionID?: string;
  directory?: string;
  worktree?: string;
}

export interface V1ToolDefinition {
  description: string;
  args: Record<string, unknown>;
  execute(args: unknown, ctx: V1ToolContext | undefined): Promise<string>;
}

export function recallTools(rt: PluginRuntime, cwdOf: (ctx: V1ToolContext | undefined) => string): Record<string, V1ToolDefinition> {
  const out: Record<string, V1ToolDefinition> = {};
  for (const spec of rt.recall.tools) {
    out[spec.name] = {
      description: spec.description,
      args: spec.parameters.properties,
      // rt.recall.run never rejects: a failure is an answer the model reads.
      execute: (args, ctx) => rt.recall.run(spec.name, args, { cwd: cwdOf(ctx), ...(ctx?.sessionID && { sessionId: ctx.sessionID }) }),
    };
  }
  return out;
}

/** `tool.definition`: our tools get their exact JSON Schema back. */
export function fixDefinition(rt: PluginRuntime, toolID: unknown, output: { jsonSchema?: unknown } | undefined): void {
  if (typeof toolID !== 'string' || !isRecallToolName(toolID) || !output) return;
  const spec = rt.recall.tools.find((t) => t.name === toolID);
  if (spec) output.jsonSchema = structuredClone(spec.parameters);
}
