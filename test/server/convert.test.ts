/**
 * The conversion library on its own: every import format from a fixture the test builds, the error codes, and
 * every export. OCR runs for real (tesseract.js with the installed eng/fra data) on text rendered into images.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import * as XLSX from '@e965/xlsx';
import {
  DOCUMENT_MIME,
  PRESENTATION_MIME,
  SCRIPT_MIME,
  SCRIPT_TEXT_MIME,
  SPREADSHEET_MIME,
} from '../../src/protocol/native.ts';
import type { NativeKind } from '../../src/protocol/native.ts';
import {
  ConversionError,
  convert,
  exportFormats,
  exportNative,
  importFormats,
  maxImportSizes,
  maxUploadSize,
  setOcrCacheDir,
  terminateOcr,
} from '../../server/convert/index.ts';
import type { DocumentContent, NativeContent } from '../../server/convert/index.ts';
import { textPng } from '../fixtures/bitmap-text.ts';
import {
  docx,
  odp,
  odt,
  pdfWithImage,
  pdfWithText,
  ppt,
  pptx,
  sheetJsBook,
  textBmp,
  textGif,
  textJpeg,
  xlsx,
} from '../fixtures/office-fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'convert-test-'));
setOcrCacheDir(path.join(dir, 'tessdata'));
after(async () => {
  await terminateOcr();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Writes the bytes to a temp file and converts them, as the service does with stored media. */
async function run(
  bytes: Buffer | string,
  mimeType: string,
  target: NativeKind,
  ocrLanguage?: string,
): Promise<NativeContent> {
  const file = path.join(dir, `in-${++n}`);
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  writeFileSync(file, buf);
  return convert({ path: file, mimeType, size: buf.length }, target, ocrLanguage === undefined ? {} : { ocrLanguage });
}

async function rejectsWith(p: Promise<unknown>, code: string, ...fragments: string[]): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ConversionError, `expected ConversionError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    for (const f of fragments) assert.ok(err.message.includes(f), `message "${err.message}" should mention "${f}"`);
    return true;
  });
}

const paragraphs = (c: NativeContent) =>
  (c as DocumentContent).blocks.map((b) => (b.type === 'paragraph' ? [b.text, b.style ?? ''] : ['[image]', b.ocrText]));

describe('tables for the about resource', () => {
  test('importFormats covers every format the supplement lists', () => {
    const expect: [string, NativeKind][] = [
      ['application/msword', DOCUMENT_MIME],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', DOCUMENT_MIME],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.template', DOCUMENT_MIME],
      ['application/vnd.oasis.opendocument.text', DOCUMENT_MIME],
      ['application/rtf', DOCUMENT_MIME],
      ['text/html', DOCUMENT_MIME],
      ['text/plain', DOCUMENT_MIME],
      ['text/markdown', DOCUMENT_MIME],
      ['application/pdf', DOCUMENT_MIME],
      ['image/jpeg', DOCUMENT_MIME],
      ['image/png', DOCUMENT_MIME],
      ['image/gif', DOCUMENT_MIME],
      ['image/bmp', DOCUMENT_MIME],
      ['application/vnd.ms-excel', SPREADSHEET_MIME],
      ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', SPREADSHEET_MIME],
      ['application/vnd.oasis.opendocument.spreadsheet', SPREADSHEET_MIME],
      ['text/csv', SPREADSHEET_MIME],
      ['text/tab-separated-values', SPREADSHEET_MIME],
      ['text/plain', SPREADSHEET_MIME],
      ['application/vnd.ms-powerpoint', PRESENTATION_MIME],
      ['application/vnd.openxmlformats-officedocument.presentationml.presentation', PRESENTATION_MIME],
      ['application/vnd.oasis.opendocument.presentation', PRESENTATION_MIME],
      ['application/json', SCRIPT_MIME],
      [SCRIPT_TEXT_MIME, SCRIPT_MIME],
    ];
    for (const [source, kind] of expect) assert.ok(importFormats[source]?.includes(kind), `${source} → ${kind}`);
    assert.deepEqual(importFormats['text/plain'], [DOCUMENT_MIME, SPREADSHEET_MIME]);
  });

  test('exportFormats, maxImportSizes and maxUploadSize', () => {
    assert.deepEqual(exportFormats[SPREADSHEET_MIME], [
      'text/csv',
      'text/tab-separated-values',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.oasis.opendocument.spreadsheet',
    ]);
    assert.deepEqual(exportFormats[SCRIPT_MIME], ['application/vnd.svc-apps.script+json']);
    assert.equal(maxImportSizes[DOCUMENT_MIME], 10 * 1024 * 1024);
    assert.equal(maxImportSizes[SPREADSHEET_MIME], 100 * 1024 * 1024);
    assert.equal(maxUploadSize, 5 * 1024 ** 4);
    // The tables must survive JSON (the about resource serves them as JSON).
    assert.deepEqual(JSON.parse(JSON.stringify(importFormats)), importFormats);
  });
});

describe('spreadsheets', () => {
  test('CSV: quoted commas and line breaks, numbers only when lossless, trailing empties dropped', async () => {
    const c = await run(
      'name,qty,code\r\n"Smith, J",3,007\n"two\nlines",1.50,\nempty,,\n',
      'text/csv; charset=utf-8',
      SPREADSHEET_MIME,
    );
    assert.deepEqual(c, {
      kind: 'spreadsheet',
      sheets: [
        { name: 'Sheet1', rows: [['name', 'qty', 'code'], ['Smith, J', 3, '007'], ['two\nlines', '1.50'], ['empty']] },
      ],
    });
  });

  test('TSV keeps quotes as data', async () => {
    const c = await run('a\tb\n"x\t2\n', 'text/tab-separated-values', SPREADSHEET_MIME);
    assert.deepEqual(c, {
      kind: 'spreadsheet',
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            ['a', 'b'],
            ['"x', 2],
          ],
        },
      ],
    });
  });

  test('plain text picks its delimiter from the first line', async () => {
    assert.deepEqual(await run('a\tb\nc\td\n', 'text/plain', SPREADSHEET_MIME), {
      kind: 'spreadsheet',
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            ['a', 'b'],
            ['c', 'd'],
          ],
        },
      ],
    });
    assert.deepEqual(await run('one, two\nthree\n', 'text/plain', SPREADSHEET_MIME), {
      kind: 'spreadsheet',
      sheets: [{ name: 'Sheet1', rows: [['one', ' two'], ['three']] }],
    });
    assert.deepEqual(await run('just words\n', 'text/plain', SPREADSHEET_MIME), {
      kind: 'spreadsheet',
      sheets: [{ name: 'Sheet1', rows: [['just words']] }],
    });
  });

  test('XLSX: every sheet, formula results', async () => {
    const c = await run(
      await xlsx(),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      SPREADSHEET_MIME,
    );
    assert.deepEqual(c, {
      kind: 'spreadsheet',
      sheets: [
        {
          name: 'Numbers',
          rows: [
            ['name', 'qty'],
            ['apple', 3, 6],
          ],
        },
        { name: 'Notes', rows: [['hello', true]] },
      ],
    });
  });

  test('XLS (BIFF8) and ODS', async () => {
    const want = {
      kind: 'spreadsheet',
      sheets: [
        {
          name: 'Cities',
          rows: [
            ['city', 'pop'],
            ['Lyon', 522000],
            ['Nice', null, 'x'],
          ],
        },
      ],
    };
    assert.deepEqual(await run(sheetJsBook('biff8'), 'application/vnd.ms-excel', SPREADSHEET_MIME), want);
    assert.deepEqual(
      await run(sheetJsBook('ods'), 'application/vnd.oasis.opendocument.spreadsheet', SPREADSHEET_MIME),
      want,
    );
  });
});

describe('documents', () => {
  test('plain text: one paragraph per line, BOM dropped', async () => {
    const c = await run('\ufefffirst\r\n\r\nthird\n', 'text/plain', DOCUMENT_MIME);
    assert.deepEqual(paragraphs(c), [
      ['first', ''],
      ['', ''],
      ['third', ''],
    ]);
  });

  test('DOCX and DOTX through mammoth keep the heading style', async () => {
    const bytes = await docx('Quarterly report', ['Sales rose.', 'Costs <fell> & stayed low.']);
    const want = [
      ['Quarterly report', 'heading1'],
      ['Sales rose.', ''],
      ['Costs <fell> & stayed low.', ''],
    ];
    assert.deepEqual(
      paragraphs(
        await run(bytes, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', DOCUMENT_MIME),
      ),
      want,
    );
    assert.deepEqual(
      paragraphs(
        await run(bytes, 'application/vnd.openxmlformats-officedocument.wordprocessingml.template', DOCUMENT_MIME),
      ),
      want,
    );
  });

  test('ODT: headings, spaces and tabs, list items, table rows', async () => {
    const body =
      '<text:h text:outline-level="2">Intro</text:h><text:p>a<text:s text:c="3"/>b<text:tab/>c<text:span>d</text:span></text:p>' +
      '<text:list><text:list-item><text:p>item one</text:p></text:list-item></text:list>' +
      '<table:table><table:table-row><table:table-cell><text:p>r1c1</text:p></table:table-cell><table:table-cell><text:p>r1c2</text:p></table:table-cell></table:table-row></table:table>';
    assert.deepEqual(paragraphs(await run(await odt(body), 'application/vnd.oasis.opendocument.text', DOCUMENT_MIME)), [
      ['Intro', 'heading2'],
      ['a   b\tcd', ''],
      ['item one', 'listItem'],
      ['r1c1\tr1c2', ''],
    ]);
  });

  test('RTF: font table skipped, code-page bytes, \\u with fallback, escaped braces', async () => {
    const rtf =
      "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}}{\\*\\generator Test;}\\f0\\fs24 Caf\\'e9 \\{ok\\}\\par\n" +
      'Snow \\u9731?man\\tab end\\par}';
    assert.deepEqual(paragraphs(await run(rtf, 'application/rtf', DOCUMENT_MIME)), [
      ['Café {ok}', ''],
      ['Snow ☃man\tend', ''],
    ]);
  });

  test('HTML: blocks, styles, entities; script and head dropped', async () => {
    const html =
      '<!doctype html><html><head><title>T</title><style>p{}</style></head><body><h1>Title &amp; more</h1>' +
      '<p>Hello <b>bold</b>\n  world</p><script>alert(1)</script><ul><li>one</li><li>two</li></ul><pre>x = 1\n  y</pre>line<br>break</body></html>';
    assert.deepEqual(paragraphs(await run(html, 'text/html', DOCUMENT_MIME)), [
      ['Title & more', 'heading1'],
      ['Hello bold world', ''],
      ['one', 'listItem'],
      ['two', 'listItem'],
      ['x = 1', 'code'],
      ['  y', 'code'],
      ['line', ''],
      ['break', ''],
    ]);
  });

  test('Markdown: headings, emphasis flattened, lists, code, quotes', async () => {
    const md =
      '# Top\n\nSome *emphasis* and [a link](http://x).\n\n- first\n- second\n\n```\ncode line\n```\n\n> quoted\n';
    assert.deepEqual(paragraphs(await run(md, 'text/markdown', DOCUMENT_MIME)), [
      ['Top', 'heading1'],
      ['Some emphasis and a link.', ''],
      ['first', 'listItem'],
      ['second', 'listItem'],
      ['code line', 'code'],
      ['quoted', 'quote'],
    ]);
  });

  test('PDF with a text layer', async () => {
    const c = await run(pdfWithText(['Invoice 42', 'Total (EUR) 17']), 'application/pdf', DOCUMENT_MIME);
    assert.deepEqual(paragraphs(c), [
      ['Invoice 42', ''],
      ['Total (EUR) 17', ''],
    ]);
  });

  test("scanned PDF (image only) is OCR'd", async () => {
    const c = (await run(pdfWithImage(['SCANNED PAGE']), 'application/pdf', DOCUMENT_MIME, 'en')) as DocumentContent;
    assert.equal(c.blocks.length, 1);
    const img = c.blocks[0];
    assert.equal(img.type, 'image');
    assert.match(img.type === 'image' ? img.ocrText : '', /SCANNED PAGE/);
  });
});

describe('images and OCR', () => {
  const words = ['HELLO WORLD', 'STORAGE KIT'];
  for (const [mime, make] of [
    ['image/png', textPng],
    ['image/jpeg', textJpeg],
    ['image/gif', textGif],
    ['image/bmp', textBmp],
  ] as const) {
    test(`${mime} → document holding the image and its OCR text`, async () => {
      const bytes = make(words);
      const c = (await run(bytes, mime, DOCUMENT_MIME, 'en-US')) as DocumentContent;
      assert.equal(c.blocks.length, 1);
      const img = c.blocks[0];
      assert.ok(img.type === 'image');
      assert.equal(img.mimeType, mime);
      assert.equal(Buffer.from(img.data, 'base64').equals(bytes), true, 'the original bytes are embedded');
      assert.match(img.ocrText, /HELLO WORLD/);
      assert.match(img.ocrText, /STORAGE KIT/);
      assert.equal(img.ocrLanguage, 'en-US');
    });
  }

  test('French OCR with ocrLanguage=fr-FR', async () => {
    const c = (await run(
      textPng(['BONJOUR LE MONDE', 'MERCI BEAUCOUP']),
      'image/png',
      DOCUMENT_MIME,
      'fr-FR',
    )) as DocumentContent;
    const img = c.blocks[0];
    assert.ok(img.type === 'image');
    assert.match(img.ocrText, /BONJOUR LE MONDE/);
    assert.match(img.ocrText, /MERCI BEAUCOUP/);
  });

  test('an ocrLanguage without installed data is read with English data; a malformed one → badOcrLanguage', async () => {
    for (const tag of ['de', 'ja-JP', 'zh-Hant']) {
      const c = (await run(textPng(['HI']), 'image/png', DOCUMENT_MIME, tag)) as DocumentContent;
      const img = c.blocks[0];
      assert.ok(img.type === 'image', tag);
      assert.match(img.ocrText, /HI/, tag);
    }
    await rejectsWith(run(textPng(['HI']), 'image/png', DOCUMENT_MIME, 'not a tag'), 'badOcrLanguage', 'not a BCP 47');
  });
});

describe('presentations', () => {
  test('PPTX follows the slide list order', async () => {
    const c = await run(
      await pptx([['Welcome', 'to the deck'], ['Second slide']]),
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      PRESENTATION_MIME,
    );
    assert.deepEqual(c, {
      kind: 'presentation',
      slides: [{ paragraphs: ['Welcome', 'to the deck'] }, { paragraphs: ['Second slide'] }],
    });
  });

  test('ODP leaves speaker notes out', async () => {
    const c = await run(
      await odp([['Title slide'], ['Point A', 'Point B']]),
      'application/vnd.oasis.opendocument.presentation',
      PRESENTATION_MIME,
    );
    assert.deepEqual(c, {
      kind: 'presentation',
      slides: [{ paragraphs: ['Title slide'] }, { paragraphs: ['Point A', 'Point B'] }],
    });
  });

  test('PPT (binary) reads the slide list text', async () => {
    const c = await run(
      ppt([['Old format', 'still works'], ['Slide two']]),
      'application/vnd.ms-powerpoint',
      PRESENTATION_MIME,
    );
    assert.deepEqual(c, {
      kind: 'presentation',
      slides: [{ paragraphs: ['Old format', 'still works'] }, { paragraphs: ['Slide two'] }],
    });
  });
});

describe('scripts', () => {
  test('script text, project JSON, and other JSON', async () => {
    assert.deepEqual(await run('function f() {}\n', SCRIPT_TEXT_MIME, SCRIPT_MIME), {
      kind: 'script',
      files: [{ name: 'Code', type: 'server_js', source: 'function f() {}\n' }],
    });
    const project = {
      files: [
        { name: 'Main', type: 'server_js', source: 'x()' },
        { name: 'appsscript', type: 'json', source: '{}' },
      ],
    };
    assert.deepEqual(await run(JSON.stringify(project), 'application/json', SCRIPT_MIME), {
      kind: 'script',
      files: project.files,
    });
    assert.deepEqual(await run('[1,2]', 'application/json', SCRIPT_MIME), {
      kind: 'script',
      files: [{ name: 'appsscript', type: 'json', source: '[1,2]' }],
    });
  });
});

describe('errors', () => {
  test('unsupported conversion names both types', async () => {
    await rejectsWith(run('x', 'application/zip', DOCUMENT_MIME), 'unsupported', 'application/zip', DOCUMENT_MIME);
    await rejectsWith(run('a,b', 'text/csv', PRESENTATION_MIME), 'unsupported', 'text/csv', PRESENTATION_MIME);
  });

  test('over maxImportSizes → tooLarge before reading the file', async () => {
    const p = convert(
      { path: path.join(dir, 'does-not-exist'), mimeType: 'text/plain', size: 10 * 1024 * 1024 + 1 },
      DOCUMENT_MIME,
      {},
    );
    await rejectsWith(p, 'tooLarge', '10485761', '10485760');
  });

  const garbage = Buffer.from('this is not the file you are looking for');
  const cases: [string, string, NativeKind, Buffer | string, string][] = [
    [
      'DOCX',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      DOCUMENT_MIME,
      garbage,
      'Word document',
    ],
    ['DOC', 'application/msword', DOCUMENT_MIME, garbage, 'Word 97–2003'],
    ['ODT without content.xml', 'application/vnd.oasis.opendocument.text', DOCUMENT_MIME, 'zip', 'content.xml'],
    [
      'XLSX',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      SPREADSHEET_MIME,
      garbage,
      'Excel workbook',
    ],
    ['XLS', 'application/vnd.ms-excel', SPREADSHEET_MIME, garbage, 'Excel 97–2003'],
    ['ODS', 'application/vnd.oasis.opendocument.spreadsheet', SPREADSHEET_MIME, garbage, 'OpenDocument spreadsheet'],
    [
      'PPTX',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      PRESENTATION_MIME,
      garbage,
      'PowerPoint',
    ],
    ['PPT', 'application/vnd.ms-powerpoint', PRESENTATION_MIME, garbage, 'PowerPoint 97–2003'],
    ['PNG', 'image/png', DOCUMENT_MIME, garbage, 'PNG'],
    ['truncated PNG', 'image/png', DOCUMENT_MIME, 'png', 'PNG image'],
    ['PDF', 'application/pdf', DOCUMENT_MIME, garbage, 'PDF'],
    ['broken PDF', 'application/pdf', DOCUMENT_MIME, Buffer.from('%PDF-1.4\n1 0 obj <<\n'), 'PDF'],
    ['RTF', 'application/rtf', DOCUMENT_MIME, garbage, 'RTF'],
    ['truncated RTF', 'application/rtf', DOCUMENT_MIME, '{\\rtf1 {\\b bold', 'not closed'],
    ['CSV with an open quote', 'text/csv', SPREADSHEET_MIME, 'a,"b\n', 'CSV'],
    ['invalid UTF-8 text', 'text/plain', DOCUMENT_MIME, Buffer.from([0x66, 0xff, 0xfe, 0x00]), 'UTF-8'],
    ['JSON', 'application/json', SCRIPT_MIME, '{"files": [', 'JSON'],
  ];
  for (const [name, mime, kind, input, fragment] of cases) {
    test(`corrupt ${name} → corrupt`, async () => {
      let bytes: Buffer | string = input;
      if (input === 'zip')
        bytes = await odt('').then(async (b) => {
          const JSZip = (await import('jszip')).default;
          const z = await JSZip.loadAsync(b);
          z.remove('content.xml');
          return z.generateAsync({ type: 'nodebuffer' });
        });
      if (input === 'png') bytes = textPng(['HI']).subarray(0, 60);
      await rejectsWith(run(bytes, mime, kind), 'corrupt', fragment);
    });
  }
});

describe('export', () => {
  const sheet: NativeContent = {
    kind: 'spreadsheet',
    sheets: [
      {
        name: 'Data',
        rows: [
          ['a', 'b, c'],
          [1, null, 'line\nbreak'],
        ],
      },
      { name: 'Other', rows: [['z']] },
    ],
  };
  const doc: NativeContent = {
    kind: 'document',
    blocks: [
      { type: 'paragraph', text: 'Title <1>', style: 'heading1' },
      { type: 'paragraph', text: 'Body & text' },
      { type: 'paragraph', text: 'item', style: 'listItem' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA', ocrText: 'SEEN IN IMAGE' },
    ],
  };
  const text = (r: { body: Uint8Array }) => Buffer.from(r.body).toString('utf8');

  test('spreadsheet → CSV and TSV (first sheet)', async () => {
    const csv = await exportNative(sheet, SPREADSHEET_MIME, 'text/csv');
    assert.equal(csv.mimeType, 'text/csv; charset=utf-8');
    assert.equal(text(csv), 'a,"b, c"\r\n1,,"line\nbreak"\r\n');
    assert.equal(
      text(await exportNative(sheet, SPREADSHEET_MIME, 'text/tab-separated-values')),
      'a\tb, c\r\n1\t\tline break\r\n',
    );
  });

  test('spreadsheet → XLSX and ODS round-trip through other readers', async () => {
    const x = await exportNative(
      sheet,
      SPREADSHEET_MIME,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(x.body) as unknown as ArrayBuffer);
    assert.deepEqual(
      wb.worksheets.map((w) => w.name),
      ['Data', 'Other'],
    );
    assert.equal(wb.worksheets[0].getCell('B1').value, 'b, c');
    assert.equal(wb.worksheets[0].getCell('A2').value, 1);
    const o = await exportNative(sheet, SPREADSHEET_MIME, 'application/vnd.oasis.opendocument.spreadsheet');
    const book = XLSX.read(o.body, { type: 'array' });
    assert.deepEqual(book.SheetNames, ['Data', 'Other']);
    assert.deepEqual(XLSX.utils.sheet_to_json(book.Sheets['Data'], { header: 1, defval: null }), [
      ['a', 'b, c', null],
      [1, null, 'line\nbreak'],
    ]);
  });

  test('document → text, HTML, Markdown, DOCX', async () => {
    assert.equal(
      text(await exportNative(doc, DOCUMENT_MIME, 'text/plain')),
      'Title <1>\nBody & text\nitem\nSEEN IN IMAGE\n',
    );
    const html = text(await exportNative(doc, DOCUMENT_MIME, 'text/html; charset=utf-8'));
    assert.match(
      html,
      /<h1>Title &#60;1&#62;<\/h1>\n<p>Body &#38; text<\/p>\n<ul>\n<li>item<\/li>\n<\/ul>\n<p><img src="data:image\/png;base64,AAAA" alt="SEEN IN IMAGE"><\/p>/,
    );
    assert.equal(
      text(await exportNative(doc, DOCUMENT_MIME, 'text/markdown')),
      '# Title <1>\n\nBody & text\n\n- item\n\n![SEEN IN IMAGE](data:image/png;base64,AAAA)\n',
    );
    const d = await exportNative(
      doc,
      DOCUMENT_MIME,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    assert.equal(d.mimeType, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const back = await mammoth.convertToHtml({ buffer: Buffer.from(d.body) });
    assert.equal(back.value, '<h1>Title &lt;1&gt;</h1><p>Body &amp; text</p><p>item</p><p>SEEN IN IMAGE</p>');
  });

  test('presentation → text; script → script JSON', async () => {
    const pres: NativeContent = {
      kind: 'presentation',
      slides: [{ paragraphs: ['One', 'two'] }, { paragraphs: ['Three'] }],
    };
    assert.equal(text(await exportNative(pres, PRESENTATION_MIME, 'text/plain')), 'One\ntwo\n\nThree\n');
    const script: NativeContent = { kind: 'script', files: [{ name: 'Code', type: 'server_js', source: 'f()' }] };
    const s = await exportNative(script, SCRIPT_MIME, 'application/vnd.svc-apps.script+json');
    assert.equal(s.mimeType, 'application/vnd.svc-apps.script+json');
    assert.deepEqual(JSON.parse(text(s)), { files: [{ name: 'Code', type: 'server_js', source: 'f()' }] });
  });

  test('an export type the kind does not offer → unsupportedExport naming both', async () => {
    await rejectsWith(
      exportNative(doc, DOCUMENT_MIME, 'image/png'),
      'unsupportedExport',
      DOCUMENT_MIME,
      'image/png',
      'text/plain',
    );
    await rejectsWith(exportNative(sheet, SPREADSHEET_MIME, 'text/plain'), 'unsupportedExport', 'text/plain');
  });

  test('import then export: CSV bytes come back unchanged', async () => {
    const csv = 'name,qty\r\n"Smith, J",3\r\nplain,007\r\n';
    const c = await run(csv, 'text/csv', SPREADSHEET_MIME);
    assert.equal(text(await exportNative(c, SPREADSHEET_MIME, 'text/csv')), csv);
  });
});
