export { createMcpServer, runMcpServer, type McpServerOptions } from './server.js';
export type { MemoryReader, Answer, Via } from './reader.js';
