import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * PDFs as the reader sees them: each page rendered by poppler's pdftoppm (scripts/ensure-poppler.sh installs it) to a
 * raw PPM image, read here without an image library, so a test can compare what was drawn with the layout the code
 * recorded (src/reports/pdf.ts, PdfBox: points from the top left).
 */

const run = promisify(execFile);

export interface Raster {
  /** Pixels. */
  width: number;
  height: number;
  /** RGB, row by row. */
  rgb: Buffer;
  /** The page in points (1/72 in), and pixels per point. */
  widthPt: number;
  heightPt: number;
  scale: number;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `P6 <w> <h> 255` then RGB bytes. */
function readPpm(buf: Buffer): { width: number; height: number; rgb: Buffer } {
  let pos = 0;
  const token = (): string => {
    while (/\s/.test(String.fromCharCode(buf[pos]))) pos++;
    const start = pos;
    while (!/\s/.test(String.fromCharCode(buf[pos]))) pos++;
    return buf.subarray(start, pos).toString('ascii');
  };
  if (token() !== 'P6') throw new Error('not a binary PPM');
  const width = Number(token());
  const height = Number(token());
  if (token() !== '255') throw new Error('PPM depth is not 8 bits');
  pos++;
  return { width, height, rgb: buf.subarray(pos, pos + width * height * 3) };
}

/** Every page of the PDF at `dpi` (pdftoppm -r). */
export async function renderPdf(pdf: Buffer, dpi = 60): Promise<Raster[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-raster-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), join(dir, 'in.pdf'), join(dir, 'page')]);
    const files = readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.ppm'))
      .sort();
    const scale = dpi / 72;
    return files.map((f) => {
      const img = readPpm(readFileSync(join(dir, f)));
      return { ...img, scale, widthPt: img.width / scale, heightPt: img.height / scale };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text, in reading order (pdftotext -layout). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', join(dir, 'in.pdf'), '-']);
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pixels(page: Raster, r: Region): Array<[number, number, number]> {
  const x0 = Math.max(0, Math.floor(r.x * page.scale));
  const y0 = Math.max(0, Math.floor(r.y * page.scale));
  const x1 = Math.min(page.width, Math.ceil((r.x + r.width) * page.scale));
  const y1 = Math.min(page.height, Math.ceil((r.y + r.height) * page.scale));
  const out: Array<[number, number, number]> = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * page.width + x) * 3;
      out.push([page.rgb[i], page.rgb[i + 1], page.rgb[i + 2]]);
    }
  }
  return out;
}

/** The share of a region's pixels that are not (near) white: 0 for an empty region. */
export function inkIn(page: Raster, r: Region): number {
  const px = pixels(page, r);
  if (!px.length) return 0;
  return px.filter(([red, green, blue]) => red < 235 || green < 235 || blue < 235).length / px.length;
}

/** A region's mean colour, [r, g, b]. */
export function meanColour(page: Raster, r: Region): [number, number, number] {
  const px = pixels(page, r);
  const sum = px.reduce((acc, p) => [acc[0] + p[0], acc[1] + p[1], acc[2] + p[2]], [0, 0, 0]);
  return [sum[0] / px.length, sum[1] / px.length, sum[2] / px.length].map(Math.round) as [number, number, number];
}
