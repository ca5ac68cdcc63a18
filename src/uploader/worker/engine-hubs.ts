import { EngineHub, type EnginePorts } from './engine-hub.ts';
import type { Principal } from './principals.ts';
import { engineKeyOf, type UploaderSettings } from '../contract/settings.ts';
import type { UploaderHost } from '../contract/types.ts';

/**
 * The engines of one worker, one per distinct settings and account: every page connected to a shared worker with the
 * same settings, signed in to the same account, attaches to the same `EngineHub`; another account's page gets an
 * engine of its own, so it never sees, controls or lends a token to the first one's uploads. `host` says what the
 * worker is; a dedicated worker's engine ends with its page, a shared worker's goes on while the worker lives.
 */
export class EngineHubs {
  readonly #hubs = new Map<string, Promise<EngineHub>>();
  #busyHubs = 0;

  constructor(
    private readonly portsFor: (settings: UploaderSettings) => EnginePorts | Promise<EnginePorts>,
    readonly host: UploaderHost = 'dedicated',
    /** Told when the worker's first task starts and when its last one ends. */
    private readonly onBusy?: (busy: boolean) => void,
  ) {}

  /** The hub running these settings for this account, made on first use. */
  hubFor(settings: UploaderSettings, principal: Principal): Promise<EngineHub> {
    const key = `${engineKeyOf(settings)}\n${principal}`;
    let hub = this.#hubs.get(key);
    if (!hub) {
      hub = Promise.resolve(this.portsFor(settings)).then(
        (ports) => new EngineHub(settings, principal, ports, (busy) => this.#busy(busy)),
      );
      this.#hubs.set(key, hub);
      hub.catch(() => this.#hubs.delete(key));
    }
    return hub;
  }

  #busy(busy: boolean): void {
    const before = this.#busyHubs;
    this.#busyHubs += busy ? 1 : -1;
    if ((before === 0) !== (this.#busyHubs === 0)) this.onBusy?.(this.#busyHubs > 0);
  }
}
