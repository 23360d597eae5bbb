/** claude-mem for Pi: capture, memory context and the five memory tools (Pi has no MCP). */
import { createExtension } from '../pi-base/extension.js';
import { PI_API } from './api.js';

export default createExtension({ spec: PI_API, nativeTools: true }, import.meta.url);
