import {
  H_CONTENT_LENGTH,
  H_CONTENT_TYPE,
  H_SVC_CHANGED,
  H_SVC_CHANNEL_EXPIRATION,
  H_SVC_CHANNEL_ID,
  H_SVC_CHANNEL_TOKEN,
  H_SVC_MESSAGE_NUMBER,
  H_SVC_RESOURCE_ID,
  H_SVC_RESOURCE_STATE,
  H_SVC_RESOURCE_URI,
} from 'store-upload-kit/protocol';
import type { ChangeType, PushState } from 'store-upload-kit/protocol';

/**
 * One push message as queued and sent (spec §6): what the channel and the event say, and the exact HTTP headers
 * and body that carry it.
 */

/** A message bound for one channel's address. */
export interface PushMessage {
  channelId: string;
  /**
   * Key of the FIFO queue this message joins; default `channelId`. Channel ids are unique per project only, so
   * the push service passes `channelQueueKey(channel)` (the project and the channel id) to keep two projects'
   * channels apart.
   */
  queueKey?: string;
  /** HTTPS receiving URL of the channel. */
  address: string;
  resourceId: string;
  resourceUri: string;
  /** `X-Svc-Resource-State` (spec §6.2). */
  state: PushState;
  /** 1 for sync, then rising (not consecutive). */
  messageNumber: number;
  /** Change types; only sent with `update`. */
  changed?: ChangeType[];
  /** Channel expiry, Unix ms; absent when the channel does not expire. */
  expiration?: number;
  /** Channel token, echoed when the channel has one. */
  token?: string;
  /** True for a change-log channel: the message carries `{"kind":"store#changes"}`. */
  changeLog?: boolean;
}

/** The content type the spec gives for every message (sic: `utf-8` without `charset=`). */
const PUSH_CONTENT_TYPE = 'application/json; utf-8';

/** The body of every change-log message (spec §2.5, supplement §8). */
const CHANGE_LOG_BODY = '{"kind":"store#changes"}';

/** The request body and headers for `message`, with the presence rules of spec §6.1. */
export function encodePushMessage(message: PushMessage): { headers: Record<string, string>; body: Buffer } {
  const body = Buffer.from(message.changeLog ? CHANGE_LOG_BODY : '', 'utf8');
  const headers: Record<string, string> = {
    [H_CONTENT_TYPE]: PUSH_CONTENT_TYPE,
    [H_CONTENT_LENGTH]: String(body.length),
    [H_SVC_CHANNEL_ID]: message.channelId,
    [H_SVC_MESSAGE_NUMBER]: String(message.messageNumber),
    [H_SVC_RESOURCE_ID]: message.resourceId,
    [H_SVC_RESOURCE_STATE]: message.state,
    [H_SVC_RESOURCE_URI]: message.resourceUri,
  };
  if (message.state === 'update' && message.changed && message.changed.length > 0) {
    // Spec §6.3: several values separated by a comma and a space.
    headers[H_SVC_CHANGED] = message.changed.join(', ');
  }
  if (message.expiration !== undefined) {
    // RFC 1123 date, which is what Date#toUTCString produces ("Sun, 06 Nov 1994 08:49:37 GMT").
    headers[H_SVC_CHANNEL_EXPIRATION] = new Date(message.expiration).toUTCString();
  }
  if (message.token !== undefined) headers[H_SVC_CHANNEL_TOKEN] = message.token;
  return { headers, body };
}
