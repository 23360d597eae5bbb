/** A test HTTP server on 127.0.0.1 (a free port) that hands each request over with its whole body as text. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type BodyHandler = (req: IncomingMessage, res: ServerResponse, text: string) => void;

export interface LocalServer {
  port: number;
  /** Drops open (keep-alive) connections too, so a test never waits on a client. */
  close(): Promise<void>;
}

export async function startLocalServer(handle: BodyHandler): Promise<LocalServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
