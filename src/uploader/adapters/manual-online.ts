import type { OnlinePort } from '../contract/ports.ts';

/**
 * A connectivity port driven by hand: each page forwards its own `online`/`offline` events (`navigatorOnline` in
 * `page/page-environment.ts`) to the engine's worker, which sets it here.
 */
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
