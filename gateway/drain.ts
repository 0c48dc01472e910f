import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/** How often connections that carry no request are closed while draining. */
const IDLE_SWEEP_MS = 200;

/**
 * Graceful stop of an HTTP server. Node's own `server.close()` also cuts every
 * connection that looks idle at that instant, which includes one whose
 * request is still unread in the socket buffer while the event loop is busy.
 * So only the listening socket is closed at once; responses from then on
 * (to requests in flight too) say `Connection: close`, idle connections are
 * closed on a short sweep, and whatever remains after the grace time is cut.
 * (Connections still in the kernel's accept queue when the listener closes
 * are refused, as with any server that stops listening.)
 */
export class HttpDrain {
  private readonly open = new Set<ServerResponse>();
  private draining = false;

  constructor(private readonly server: Server) {
    server.on('request', (_req, res: ServerResponse) => {
      if (this.draining) return void (res.shouldKeepAlive = false);
      this.open.add(res);
      res.once('close', () => this.open.delete(res));
    });
  }

  drain(graceMs: number): Promise<void> {
    this.draining = true;
    for (const res of this.open) if (!res.headersSent) res.shouldKeepAlive = false;
    const { server } = this;
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
}
