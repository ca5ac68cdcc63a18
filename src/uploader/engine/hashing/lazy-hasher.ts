import type { HasherPort } from '../../contract/ports.ts';
import type { Md5Preference } from './md5-engine.ts';

/**
 * Trackers in the calling thread, their code loaded on the first `open`: a default that costs an uploader that
 * hashes elsewhere (or never) nothing. Used in Node and where a worker cannot start a worker.
 */
export function lazyInThreadHasher(preference: Md5Preference = 'auto'): HasherPort {
  return {
    async open(saved, offset, readLimitMs) {
      const { Md5Tracker } = await import('./md5-tracker.ts');
      return Md5Tracker.open(preference, saved, offset, readLimitMs);
    },
  };
}
