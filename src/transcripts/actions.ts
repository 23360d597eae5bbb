/** Which fields each action reads, and which it cannot do without. */
import type { Action } from './types.js';

const COMMON = ['sessionId', 'cwd', 'at', 'promptId', 'agentId', 'parentSessionId', 'model'];

export const ACTION_FIELDS: Record<Action, readonly string[]> = {
  session_init: [...COMMON, 'subagent', 'reason', 'title'],
  session_context: [...COMMON, 'subagent', 'title'],
  user_message: [...COMMON, 'prompt'],
  assistant_message: [...COMMON, 'message'],
  tool_use: [...COMMON, 'toolUseId', 'toolName', 'toolInput'],
  tool_result: [...COMMON, 'toolUseId', 'toolName', 'toolInput', 'toolResponse', 'toolFailed'],
  observation: [...COMMON, 'title', 'message', 'toolName', 'filePath'],
  file_edit: [...COMMON, 'filePath', 'oldText', 'newText', 'toolUseId', 'toolName'],
  session_end: [...COMMON, 'reason'],
};

/** Each inner list: at least one of these fields must be given. */
export const ACTION_REQUIRED: Partial<Record<Action, string[][]>> = {
  user_message: [['prompt']],
  assistant_message: [['message']],
  tool_use: [['toolName']],
  tool_result: [['toolUseId', 'toolResponse']],
  observation: [['title', 'message']],
  file_edit: [['filePath']],
};

/** Keys of a schema's `session` block (session fields the log itself may lack). */
export const SESSION_DEFAULT_FIELDS = ['sessionId', 'cwd', 'model', 'agentId', 'parentSessionId', 'subagent'];
