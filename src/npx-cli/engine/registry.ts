/** Format editors, loaded on first use: most installs touch no YAML, and `yaml` alone takes ~100 ms to load. */
import type { Editor } from './editor.js';
import type { FileFormat } from './types.js';

type Format = Exclude<FileFormat, 'file'>;

const loaders: Record<Format, () => Promise<Editor>> = {
  json: () => import('./json.js').then((m) => m.jsonEditor),
  toml: () => import('./toml.js').then((m) => m.tomlEditor),
  yaml: () => import('./yaml.js').then((m) => m.yamlEditor),
  text: () => import('./block.js').then((m) => m.blockEditor),
};

const cache = new Map<Format, Promise<Editor>>();

export function editorFor(format: Format): Promise<Editor> {
  let p = cache.get(format);
  if (!p) cache.set(format, (p = loaders[format]()));
  return p;
}
