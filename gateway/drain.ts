import { Server as NetServer, type Socket } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/** How often connections that carry no request are closed while draining. */
const IDLE_SWEEP_MS = 200;

/**
 * Graceful stop of an HTTP server. Node's own `server.close()` also cuts every
 * connection that looks idle at that instant, which includes one whose
 * request is still unread in the socket buffer while the event loop is busy;
 * and its idle sweep never counts a connection that has not sent a byte yet
 * (a browser's preconnect, a balancer's spare connection), which then holds
 * the stop for the whole grace time. So only the listening socket is closed at
 * once; responses from then on (to requests in flight too) say
 * `Connection: close`; on a short sweep, a kept-alive connection with nothing
 * read since its last answer is closed, and a connection that has read nothing
 * at all at two sweeps in a row (the event loop has polled in between, so
 * bytes waiting in the kernel would have been read); a request begun is left
 * to finish, and whatever remains after the grace time is cut. (Connections
 * still in the kernel's accept queue when the listener closes are refused, as
 * with any server that stops listening.)
 */
export class HttpDrain {
  private readonly open = new Set<ServerResponse>();
  /** Each connection with the bytes it had read when its last answer ended (undefined before its first). */
  private readonly connections = new Map<Socket, number | undefined>();
  /** Answers in progress per connection. */
  private readonly answering = new Map<Socket, number>();
  private draining = false;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, undefined);
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (_req, res: ServerResponse) => {
      const { socket } = res;
      if (socket) this.answering.set(socket, (this.answering.get(socket) ?? 0) + 1);
      res.once('close', () => {
        if (socket) this.answered(socket);
        this.open.delete(res);
      });
      if (this.draining) return void (res.shouldKeepAlive = false);
      this.open.add(res);
    });
  }

  private answered(socket: Socket): void {
    const left = (this.answering.get(socket) ?? 1) - 1;
    if (left > 0) return void this.answering.set(socket, left);
    this.answering.delete(socket);
    if (this.connections.has(socket)) this.connections.set(socket, socket.bytesRead);
  }

  /** Closes the idle connections; answers the silent fresh ones, to be closed at the next sweep if still silent. */
  private sweep(silentAtLastSweep: Set<Socket>): Set<Socket> {
    const silent = new Set<Socket>();
    for (const [socket, readAtLastAnswer] of this.connections) {
      if (this.answering.has(socket)) continue;
      if (readAtLastAnswer !== undefined) {
        if (socket.bytesRead === readAtLastAnswer) socket.destroy();
      } else if (socket.bytesRead === 0) {
        if (silentAtLastSweep.has(socket)) socket.destroy();
        else silent.add(socket);
      }
    }
    return silent;
  }

  drain(graceMs: number): Promise<void> {
    this.draining = true;
    for (const res of this.open) if (!res.headersSent) res.shouldKeepAlive = false;
    const { server } = this;
    return new Promise<void>((resolve) => {
      let silent = new Set<Socket>();
      const sweep = setInterval(() => (silent = this.sweep(silent)), IDLE_SWEEP_MS);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      NetServer.prototype.close.call(server, () => {
        clearInterval(sweep);
        clearTimeout(cut);
        resolve();
      });
    });
  }
}
