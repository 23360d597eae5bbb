// The agent's directory: the client's workspace roots when it shares them, else where we were launched.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Workspace } from '../../src/mcp/workspace.js';

async function pair(roots?: () => string[]) {
  const server = new McpServer({ name: 's', version: '1' });
  const workspace = new Workspace(server.server, '/home/u/app/packages/api');
  const client = new Client({ name: 'c', version: '1' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  let asked = 0;
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: roots().map((p) => ({ uri: `file://${p}`, name: p })) };
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { workspace, client, asked: () => asked };
}

describe('Workspace', () => {
  it('uses the launch directory when the client shares no roots', async () => {
    const { workspace, client } = await pair();
    expect(await workspace.cwd()).toBe('/home/u/app/packages/api');
    await client.close();
  });

  it('prefers the root holding the launch directory, asks once, and again after roots change', async () => {
    let roots = ['/home/u/other', '/home/u/app'];
    const { workspace, client, asked } = await pair(() => roots);
    expect(await workspace.cwd()).toBe('/home/u/app');
    expect(await workspace.cwd()).toBe('/home/u/app');
    expect(asked()).toBe(1);
    roots = ['/srv/project'];
    await client.sendRootsListChanged();
    await new Promise((r) => setTimeout(r, 20));
    expect(await workspace.cwd()).toBe('/srv/project');
    expect(asked()).toBe(2);
    await client.close();
  });
});
