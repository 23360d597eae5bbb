/** claude-mem for OMP: capture and memory context; the memory tools come through OMP's MCP. */
import { createExtension } from '../pi-base/extension.js';
import { OMP_API } from './api.js';

export default createExtension({ spec: OMP_API, nativeTools: false }, import.meta.url);
