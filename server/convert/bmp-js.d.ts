// bmp-js ships no types; this declares the decoder the importer uses.
declare module 'bmp-js' {
  /** Decoded bitmap: `data` is ABGR, 8 bits per channel. */
  export function decode(buffer: Buffer): { width: number; height: number; data: Buffer };
  export function encode(
    img: { width: number; height: number; data: Buffer },
    quality?: number,
  ): { data: Buffer; width: number; height: number };
}
