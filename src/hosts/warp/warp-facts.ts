/** Warp: MCP recall only. */
import { defineHost } from '../host-facts.js';

export const warpFacts = defineHost({ id: 'warp', label: 'Warp', aliases: [] });
