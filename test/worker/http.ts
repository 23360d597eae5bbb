/** Raw HTTP for tests: any Host header, any body, chunked or not. */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  token?: string;
  host?: string;
  body?: string | Buffer;
  contentType?: string;
  /** Send without content-length (chunked). */
  chunked?: boolean;
}

export function raw(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: r.host ?? `127.0.0.1:${r.port}` };
    if (r.token) headers.authorization = `Bearer ${r.token}`;
    if (r.body !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      if (!r.chunked) headers['content-length'] = Buffer.byteLength(r.body);
    }
    const req = request({ host: '127.0.0.1', port: r.port, method: r.method ?? (r.body !== undefined ? 'POST' : 'GET'), path: r.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // Left as text.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    if (r.body !== undefined) {
      if (r.chunked) {
        const buf = Buffer.from(r.body);
        for (let i = 0; i < buf.length; i += 64 * 1024) req.write(buf.subarray(i, i + 64 * 1024));
      } else req.write(r.body);
    }
    req.end();
  });
}
