import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** While the server closes, how often the connections that carry no request are closed. */
const SWEEP_MS = 100;

/**
 * What closing `server` has to end besides its listener: every connection that carries no
 * request. Node's `closeIdleConnections` ends those idle after an answer, but not one that has
 * sent nothing yet: Node counts it as a request under way until its headers timeout (60 s and
 * more), and HTTP clients open such connections ahead of need (undici does after an aborted
 * request). Returns the sweep to start when the server closes; it goes on until the server has
 * closed, so a connection whose last answer goes out meanwhile is closed right after it.
 */
export function connectionSweep(server: Server): () => void {
  const opened = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    opened.set(socket, Date.now());
    socket.once('close', () => opened.delete(socket));
  });
  const sweep = () => {
    server.closeIdleConnections();
    // Silent for a sweep's time since it opened: no request is on its way.
    const silentSince = Date.now() - SWEEP_MS;
    for (const [socket, at] of opened) if (socket.bytesRead === 0 && at <= silentSince) socket.destroy();
  };
  return () => {
    sweep();
    const timer = setInterval(sweep, SWEEP_MS).unref();
    server.once('close', () => clearInterval(timer));
  };
}

/**
 * The close of a plain Node server (not built by `createHttpApp`) that ends as the app's does:
 * the requests it is answering finish, no other connection holds it. Set up once it listens.
 */
export function closingOf(server: Server): () => Promise<void> {
  const sweep = connectionSweep(server);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      sweep();
    });
}
