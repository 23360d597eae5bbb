/** Pi: a native extension captures and recalls. */
import { defineHost } from '../host-facts.js';

export const piFacts = defineHost({ id: 'pi', label: 'Pi', aliases: ['pi-mono'], tools: { find: 'Glob' } });
