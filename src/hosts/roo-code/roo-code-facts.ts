/** Roo Code (and Zoo Code): MCP recall only; no capture path of its own. */
import { defineHost } from '../host-facts.js';

export const rooCodeFacts = defineHost({ id: 'roo-code', label: 'Roo Code', aliases: ['zoo-code'] });
