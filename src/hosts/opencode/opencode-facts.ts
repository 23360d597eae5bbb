/** OpenCode: a native plugin captures and recalls. */
import { defineHost } from '../host-facts.js';

export const opencodeFacts = defineHost({ id: 'opencode', label: 'OpenCode', aliases: [] });
