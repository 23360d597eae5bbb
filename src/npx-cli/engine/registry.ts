import { blockEditor } from './block.js';
import type { Editor } from './editor.js';
import { jsonEditor } from './json.js';
import { tomlEditor } from './toml.js';
import type { FileFormat } from './types.js';
import { yamlEditor } from './yaml.js';

export const editors: Record<Exclude<FileFormat, 'file'>, Editor> = {
  json: jsonEditor,
  toml: tomlEditor,
  yaml: yamlEditor,
  text: blockEditor,
};
