import type { OnlinePort } from '../ports.ts';

/**
 * Connectivity from `navigator.onLine` and the `online`/`offline` events of the global scope (a window or a worker).
 * Where neither exists (Node), the port says "online" and never changes.
 */
export function navigatorOnline(scope: EventTarget | undefined = globalThis as unknown as EventTarget): OnlinePort {
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return {
    isOnline: () => nav?.onLine !== false,
    subscribe(listener) {
      if (!scope || typeof scope.addEventListener !== 'function') return () => undefined;
      const online = () => listener(true);
      const offline = () => listener(false);
      scope.addEventListener('online', online);
      scope.addEventListener('offline', offline);
      return () => {
        scope.removeEventListener('online', online);
        scope.removeEventListener('offline', offline);
      };
    },
  };
}

/** A port driven by hand: the main thread forwards its own `online`/`offline` events to the worker through it. */
export class ManualOnline implements OnlinePort {
  private readonly listeners = new Set<(online: boolean) => void>();

  constructor(private online = true) {}

  isOnline(): boolean {
    return this.online;
  }

  set(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    for (const listener of [...this.listeners]) listener(online);
  }

  subscribe(listener: (online: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
