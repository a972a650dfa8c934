import type PDFDocumentClass from 'pdfkit';
import { brandColors } from './brand';
import { COLORS } from './charts';

/**
 * The reports' A4 PDFs (pdfkit, no browser): one page frame for every report (the agency's brand band across the
 * top, margins, headings, KPI boxes, SVG charts through svg-to-pdfkit) that records where it drew each block, so a
 * test can render the pages (pdftoppm) and compare them with the layout the code meant.
 */

type Doc = InstanceType<typeof PDFDocumentClass>;
type SvgToPdf = (doc: Doc, svg: string, x: number, y: number, opts?: { width?: number; height?: number }) => void;

/** pdfkit and svg-to-pdfkit (which ships no types), required when a PDF is asked for. */
function pdfLibs(): { PDFDocument: typeof PDFDocumentClass; SVGtoPDF: SvgToPdf } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return { PDFDocument: require('pdfkit') as typeof PDFDocumentClass, SVGtoPDF: require('svg-to-pdfkit') as SvgToPdf };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** Where a block was drawn: points from the page's top left, on page `page` (0-based). */
export interface PdfBox {
  name: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The brand band across the top of the first page, in points. */
export const BAND_HEIGHT = 52;
export const MARGIN = 48;
const TEXT = '#1f2328';
const MUTED = '#5b6470';

export interface Kpi {
  label: string;
  value: string;
  previous: string;
}

/** What a report PDF may be given beside its figures: where to record the layout, and the agency's logo (src/reports/logo.ts). */
export interface PdfOptions {
  layout?: PdfBox[];
  logo?: Buffer | null;
}

/** Characters beyond Latin-1 that WinAnsi (the standard fonts' encoding, Windows-1252) has: pdfkit's WIN_ANSI_MAP. */
const WIN_ANSI_EXTRA = new Set('\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018\u2019\u201A\u201C\u201D\u201E\u2020\u2021\u2022\u2026\u2030\u2039\u203A\u20AC\u2122');

/** What a character WinAnsi lacks is written as, when it has a kin there (the rest: its base letter, or "?"). */
const WIN_ANSI_KIN: Record<string, string> = {
  // Spaces that must not break (Intl's thousands separator in French, the figure space) stay unbreakable.
  '\u202F': '\u00A0',
  '\u2007': '\u00A0',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '\u2013',
  '\u2015': '\u2014',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
};

const representable = (c: string): boolean => {
  const code = c.codePointAt(0)!;
  return (code >= 0x20 && code < 0x7f) || c === '\n' || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c);
};

/**
 * Text as pdfkit's standard fonts (Helvetica) can write it. They encode WinAnsi, and pdfkit writes a character outside
 * it as the bytes of its code: the narrow no-break space `Intl` puts between thousands in French (U+202F) came out
 * as "1 /234", the thin spaces around the dash of an English or Portuguese month range (U+2009) as a control byte.
 * So every text of a report PDF goes through here (pdfDocument wraps the document's text calls and the charts' SVG):
 * no-break spaces stay no-break (U+00A0), other spaces become spaces, dashes and the minus sign their WinAnsi kin,
 * zero-width and direction marks go, a letter with a mark WinAnsi lacks keeps its base letter ("ő" as "o"), and what
 * is left (an emoji in a business name) is "?".
 */
export function winAnsi(text: string): string {
  let out = '';
  for (const c of text) {
    if (representable(c)) out += c;
    else if (c in WIN_ANSI_KIN) out += WIN_ANSI_KIN[c];
    else if (/[\p{Zs}\t]/u.test(c)) out += ' ';
    else if (/[\p{Cf}\p{Cc}]/u.test(c)) continue;
    else {
      const base = c.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base && [...base].every(representable) ? base : '?';
    }
  }
  return out;
}

/** The logo's box in the band: at most 140 x 36 points, its proportions kept. */
const LOGO_BOX = { width: 140, height: 36 };

export function pdfDocument(opts: { title: string; brand: string; color: string | null } & PdfOptions) {
  const { PDFDocument, SVGtoPDF } = pdfLibs();
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: opts.title, Author: opts.brand, Creator: opts.brand } });
  encodeTextAsWinAnsi(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const layout = opts.layout ?? [];
  let page = 0;
  doc.on('pageAdded', () => (page += 1));
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const record = (name: string, x: number, y: number, w: number, h: number) => layout.push({ name, page, x, y, width: w, height: h });

  const band = brandColors(opts.color);
  doc.rect(0, 0, doc.page.width, BAND_HEIGHT).fill(band.band);
  record('band', 0, 0, doc.page.width, BAND_HEIGHT);
  let nameX = left;
  if (opts.logo) {
    try {
      // pdfkit's openImage (not in its type definitions) reads the size; image() then draws the opened image.
      const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(opts.logo);
      const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height);
      const [w, h] = [image.width * scale, image.height * scale];
      const y = (BAND_HEIGHT - h) / 2;
      doc.image(image as unknown as Buffer, left, y, { width: w, height: h });
      record('logo', left, y, w, h);
      nameX = left + w + 12;
    } catch {
      // An image pdfkit cannot read (a corrupt PNG that passed the signature check): the name alone.
    }
  }
  doc.fillColor(band.onBand).font('Helvetica-Bold').fontSize(12).text(opts.brand, nameX, 20, { width: width - (nameX - left) });
  doc.x = left;
  doc.y = BAND_HEIGHT + 16;

  /** A new page unless `height` points still fit above the bottom margin. */
  const room = (height: number) => {
    if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
  };
  const frame = {
    doc,
    left,
    width,
    room,
    heading1(text: string) {
      doc.font('Helvetica-Bold').fontSize(18).fillColor(TEXT).text(text, left, doc.y, { width });
    },
    /** A section heading (a new page first when 40 points do not fit); answers where its text went. */
    heading(text: string): { y: number; height: number } {
      room(40);
      doc.moveDown(1).font('Helvetica-Bold').fontSize(12).fillColor(TEXT);
      const y = doc.y;
      doc.text(text, left, y, { width }).font('Helvetica').fontSize(10);
      return { y, height: doc.y - y };
    },
    muted(text: string) {
      doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(text, left, doc.y, { width });
    },
    /** Four (or fewer) boxes in a row: label, value, and a line under it. */
    kpis(name: string, kpis: Kpi[]) {
      room(70);
      const top = doc.y + 4;
      const gap = 8;
      const boxWidth = (width - (kpis.length - 1) * gap) / kpis.length;
      kpis.forEach((k, i) => {
        const x = left + i * (boxWidth + gap);
        doc.roundedRect(x, top, boxWidth, 58, 4).strokeColor(COLORS.grid).stroke();
        doc.font('Helvetica').fillColor(MUTED).fontSize(8).text(k.label, x + 6, top + 6, { width: boxWidth - 12 });
        doc.fillColor(TEXT).font('Helvetica-Bold').fontSize(15).text(k.value, x + 6, top + 20, { width: boxWidth - 12 });
        doc.font('Helvetica').fillColor(MUTED).fontSize(7).text(k.previous, x + 6, top + 40, { width: boxWidth - 12 });
      });
      record(name, left, top, width, 58);
      doc.x = left;
      doc.y = top + 66;
    },
    /** An SVG chart at a place (recorded under `name`). */
    svg(name: string, svg: string, x: number, y: number, w: number, h: number) {
      // svg-to-pdfkit encodes its text with the font itself; the markup is ASCII, so only the text changes.
      SVGtoPDF(doc, winAnsi(svg), x, y, { width: w, height: h });
      record(name, x, y, w, h);
    },
    /**
     * A heading, a full-width chart under it and an optional caption under the chart, all on a new page when they do
     * not fit. The heading's text is recorded as `<name>-heading`, so a test can see that it kept with its chart.
     */
    chart(name: string, title: string, svg: string, height: number, caption?: string) {
      const captionHeight = caption ? doc.font('Helvetica').fontSize(9).heightOfString(caption, { width }) + 4 : 0;
      room(height + 40 + captionHeight);
      const head = frame.heading(title);
      record(`${name}-heading`, left, head.y, width, head.height);
      const y = doc.y + 4;
      frame.svg(name, svg, left, y, width, height);
      doc.x = left;
      doc.y = y + height + 4;
      if (caption) frame.muted(caption);
    },
    end(): Promise<Buffer> {
      doc.end();
      return done;
    },
  };
  return frame;
}

/**
 * Every text the document is given to draw or measure goes through winAnsi, whoever draws it (the frame, a report's
 * own `doc.text`, lists): the one place, so no report can write a character the standard fonts turn into bytes.
 */
function encodeTextAsWinAnsi(doc: Doc): void {
  type Call = (...args: unknown[]) => unknown;
  const items = (list: unknown): unknown => (Array.isArray(list) ? list.map(items) : typeof list === 'string' ? winAnsi(list) : list);
  for (const method of ['text', 'heightOfString', 'widthOfString', 'list'] as const) {
    const original = (doc[method] as unknown as Call).bind(doc);
    (doc as unknown as Record<string, Call>)[method] = (first: unknown, ...rest: unknown[]) =>
      original(method === 'list' ? items(first) : typeof first === 'string' || typeof first === 'number' ? winAnsi(String(first)) : first, ...rest);
  }
}
