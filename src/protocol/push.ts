/**
 * Push notifications on the wire (spec §6): the resource states and change types the service sends, and the JSON
 * event the relay streams to pages for each message. Shared by the service, the relay and the kit's watch client.
 */

/** Values of `X-Svc-Resource-State` (spec §6.2). */
export type PushState = 'sync' | 'add' | 'remove' | 'update' | 'trash' | 'untrash' | 'change';

/** Every push state, e.g. to listen to each as an SSE event type. */
export const PUSH_STATES: readonly PushState[] = ['sync', 'add', 'remove', 'update', 'trash', 'untrash', 'change'];

/** True for a value `X-Svc-Resource-State` may carry. */
export function isPushState(value: string): value is PushState {
  return (PUSH_STATES as readonly string[]).includes(value);
}

/** Values of `X-Svc-Changed` (spec §6.3). */
export type ChangeType = 'content' | 'properties' | 'parents' | 'children' | 'permissions';

/** One push message as the relay hands it to pages: the `data` of an SSE event whose `id` is `sequence`. */
export interface PushEvent<S extends PushState = PushState> {
  /** Relay-assigned, rising per subscription; the SSE `id`. */
  sequence: number;
  channelId: string;
  resourceId: string;
  resourceUri: string;
  state: S;
  /** `X-Svc-Changed` split on commas; empty when absent. */
  changed: string[];
  messageNumber: number;
  /** `X-Svc-Channel-Expiration` as sent (an RFC 1123 date), or null. */
  expiration: string | null;
  /** The parsed JSON body (`{kind: "store#changes"}` for the change log), or null. */
  body: unknown;
}
