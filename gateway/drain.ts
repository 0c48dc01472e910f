import { Server as NetServer } from 'node:net';
import type { Server } from 'node:http';

/** How often connections that carry no request are closed while draining. */
const IDLE_SWEEP_MS = 200;

/**
 * Stops accepting connections and waits for the requests in flight. Node's
 * own `server.close()` also cuts every connection that looks idle at that
 * instant, which includes one whose request is still unread in the socket
 * buffer while the event loop is busy: that client would get a reset. So
 * only the listening socket is closed at once; responses from then on say
 * `Connection: close`, idle connections are closed on a short sweep, and
 * whatever remains after `graceMs` is cut.
 */
export function drainHttpServer(server: Server, graceMs: number): Promise<void> {
  server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    NetServer.prototype.close.call(server, () => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
  });
}
