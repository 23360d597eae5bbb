/**
 * The script every fake model server follows, whatever its wire format: the k-th model request of
 * a conversation that already holds k tool results gets the k-th scripted call (when the host
 * offers that tool); every other request — the last turn, a title request, a host's side request —
 * gets the final answer. Counting results instead of keeping state makes the script replayable
 * for each new session and immune to retries.
 */
export interface ScriptedCall {
  /** The tool's name as the host offers it (`Bash`, `exec_command`, `read_file`, …). */
  name: string;
  args: Record<string, unknown>;
  /** Responses API only: the namespace tool holding `name` (Codex groups an MCP server's tools in one). */
  namespace?: string;
}

export interface ModelScript {
  /** The calls of one turn, in order; empty = answer with text only. */
  calls: ScriptedCall[];
  /** The final answer. */
  answer: string;
}

export const DEFAULT_ANSWER = 'All done.';

export function scriptFor(calls: ScriptedCall[] = []): ModelScript {
  return { calls, answer: DEFAULT_ANSWER };
}

/** The call to make now, or undefined for the final answer. */
export function nextCall(script: ModelScript, offered: (name: string) => boolean, toolResultsSoFar: number): ScriptedCall | undefined {
  const call = script.calls[toolResultsSoFar];
  return call && offered(call.name) ? call : undefined;
}
