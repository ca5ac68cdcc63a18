/** Counts the open connections of each client address on a server, for the limit both of the service's servers keep. */
import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

/** Calls `over(socket)` for each new connection that takes its address past `limit` open connections. */
export function limitConnectionsPerClient(server: EventEmitter, limit: number, over: (socket: Socket) => void): void {
  const perClient = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const who = socket.remoteAddress ?? '';
    const open = (perClient.get(who) ?? 0) + 1;
    perClient.set(who, open);
    socket.once('close', () => {
      const left = (perClient.get(who) ?? 1) - 1;
      if (left <= 0) perClient.delete(who);
      else perClient.set(who, left);
    });
    if (open > limit) over(socket);
  });
}
