/**
 * PowerPoint 97–2003 (.ppt) → presentation: reads the "PowerPoint Document" stream of the OLE file (cfb) and
 * collects the text atoms of each slide. Slide text lives either in the slide list (SlideListWithText, one
 * SlidePersistAtom per slide) or, in files from newer PowerPoint, in each Slide container's drawing; both are read.
 * Formatting, notes and masters are left out.
 */
import CFB from 'cfb';
import { ConversionError, corrupt } from './conversion-error.ts';
import type { Importer } from './importer.ts';
import type { Slide } from './native-content.ts';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const WHAT = 'PowerPoint 97–2003 presentation';

/** Record types read (MS-PPT §2.13.24). */
const RT = {
  slide: 0x03ee,
  mainMaster: 0x03f8,
  notes: 0x03f0,
  slidePersistAtom: 0x03f3,
  slideListWithText: 0x0ff0,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
} as const;

/** Imports a binary PowerPoint file as a presentation. */
export const importPpt: Importer = async (bytes) => {
  if (!OLE_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new ConversionError('corrupt', `The file is not a valid ${WHAT}: it is not an OLE compound file.`);
  }
  let stream: Uint8Array;
  try {
    const cfb = CFB.read(bytes, { type: 'array' });
    const entry = CFB.find(cfb, 'PowerPoint Document');
    if (!entry?.content) throw new Error('it has no "PowerPoint Document" stream');
    stream = Uint8Array.from(entry.content as ArrayLike<number>);
  } catch (err) {
    throw corrupt(WHAT, err);
  }
  const listed: Slide[] = [];
  const drawn: Slide[] = [];
  walk(stream, 0, stream.length, { listed, drawn, inList: false, current: undefined });
  const fromList = listed.some((s) => s.paragraphs.length > 0);
  return { kind: 'presentation', slides: fromList ? listed : drawn };
};

interface WalkState {
  listed: Slide[];
  drawn: Slide[];
  inList: boolean;
  current: Slide | undefined;
}

function walk(b: Uint8Array, start: number, end: number, st: WalkState): void {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let pos = start;
  while (pos + 8 <= end) {
    const verInst = view.getUint16(pos, true);
    const type = view.getUint16(pos + 2, true);
    const len = view.getUint32(pos + 4, true);
    const body = pos + 8;
    if (body + len > end)
      throw new ConversionError(
        'corrupt',
        `The file is not a valid ${WHAT}: a record at offset ${pos} runs past its container.`,
      );
    const isContainer = (verInst & 0x0f) === 0x0f;
    const instance = verInst >> 4;
    if (type === RT.mainMaster || type === RT.notes) {
      // masters and notes pages are not slide text
    } else if (type === RT.slideListWithText) {
      // instance 0 lists slides; 1 masters, 2 notes
      if (instance === 0) walk(b, body, body + len, { ...st, inList: true, current: undefined });
    } else if (type === RT.slide) {
      const slide: Slide = { paragraphs: [] };
      st.drawn.push(slide);
      walk(b, body, body + len, { ...st, inList: false, current: slide });
    } else if (type === RT.slidePersistAtom && st.inList) {
      st.current = { paragraphs: [] };
      st.listed.push(st.current);
    } else if ((type === RT.textCharsAtom || type === RT.textBytesAtom) && st.current) {
      const raw = b.subarray(body, body + len);
      const text = new TextDecoder(type === RT.textCharsAtom ? 'utf-16le' : 'latin1').decode(raw);
      // \r ends a paragraph, \v is a line break inside one.
      st.current.paragraphs.push(
        ...text
          .split('\r')
          .map((p) => p.replace(/\v/g, '\n'))
          .filter((p) => p.trim() !== ''),
      );
    } else if (isContainer) {
      walk(b, body, body + len, st);
    }
    pos = body + len;
  }
}
