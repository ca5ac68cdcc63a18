/** Sizes, speeds and durations in the reader's language, through `Intl` (no hand-made unit tables). */

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
const formatters = new Map<string, Intl.NumberFormat>();

function unitFormatter(
  locale: string,
  unit: string,
  digits: number,
  display: 'short' | 'long' = 'short',
): Intl.NumberFormat {
  const key = `${locale}|${unit}|${digits}|${display}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: display, maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f;
}

/** The value in the largest decimal unit it reaches (`1536` → `[1.536, 1]`, kilobytes). */
function scaled(bytes: number): [number, number] {
  let value = Math.max(0, bytes);
  let i = 0;
  while (value >= 1000 && i < UNITS.length - 1) {
    value /= 1000;
    i++;
  }
  return [value, i];
}

/** `1536` → `1.5 kB` (decimal units, as file managers show them). */
export function formatBytes(bytes: number, locale: string): string {
  const [value, i] = scaled(bytes);
  // Short `byte` has no plural in English ("8 byte"); the long form reads right ("8 bytes", "1 byte", "8 octets").
  return unitFormatter(locale, UNITS[i], i === 0 || value >= 100 ? 0 : 1, i === 0 ? 'long' : 'short').format(value);
}

/**
 * `1_500_000` bytes a second → `1.5 MB/s`, as one `Intl` compound unit, so the locale places the number, the unit
 * and "per second" (`1.5 م.ب/ث`, `1.5 MB/秒`) rather than a pattern gluing `/s` onto a size.
 */
export function formatRate(bytesPerSecond: number, locale: string): string {
  const [value, i] = scaled(bytesPerSecond);
  return unitFormatter(locale, `${UNITS[i]}-per-second`, i === 0 || value >= 100 ? 0 : 1).format(value);
}

/** `95_000` ms → `1 min 35 s`; seconds only under a minute; hours and minutes above an hour. */
export function formatDuration(ms: number, locale: string): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const part = (value: number, unit: string): string => unitFormatter(locale, unit, 0).format(value);
  if (h) return `${part(h, 'hour')} ${part(m, 'minute')}`;
  if (m) return `${part(m, 'minute')} ${part(s, 'second')}`;
  return part(s, 'second');
}

/** Whole percent sent, 0–100; an empty file counts as complete once it is done. */
export function percentOf(sent: number, total: number, finished: boolean): number {
  if (total <= 0) return finished ? 100 : 0;
  return Math.min(100, Math.floor((sent / total) * 100));
}
