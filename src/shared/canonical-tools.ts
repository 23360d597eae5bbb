/** One tool vocabulary for every host, so the observer and search are written once. */
export const CANONICAL_TOOLS = [
  'Bash', // any shell command execution
  'Read', // read a file
  'Write', // create/overwrite a file
  'Edit', // edit part of a file (also MultiEdit, str_replace)
  'ApplyPatch', // a patch touching one or more files (Codex apply_patch)
  'Grep', // content search
  'Glob', // file name search / listing
  'LS', // directory listing
  'WebFetch',
  'WebSearch',
  'Task', // spawn a subagent
  'TodoWrite',
  'NotebookEdit',
] as const;

export type CanonicalTool = (typeof CANONICAL_TOOLS)[number];
