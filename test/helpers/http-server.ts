/** A real HTTP server on 127.0.0.1 (port 0) for fetch and discover tests; it logs every request path. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Request paths, in arrival order. */
  requests: string[];
  /** How many times a path was requested. */
  count(path: string): number;
  /** Stops the server, cutting responses still hanging. */
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, origin: string) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: string[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    count: (path) => requests.filter((p) => p === path).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
