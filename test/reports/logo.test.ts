import { imageTypeOf, isDrawableImage } from '../../src/reports/logo';
import { solidPng } from '../support/png';

/**
 * The logo's format, by its first bytes (whatever the agency's server says): what `GET /brand/logo/<key>` answers it
 * as and whether a PDF can draw it. The agency chooses the bytes, so the check must stay linear in them.
 */
describe('imageTypeOf', () => {
  it('knows PNG, JPEG, GIF, WebP and SVG by their first bytes; PDFs draw PNG and JPEG only', () => {
    const png = solidPng(2, 2, [0, 0, 0]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    expect([png, jpeg, gif, webp].map(imageTypeOf)).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    expect([png, jpeg, gif, webp].map(isDrawableImage)).toEqual([true, true, false, false]);
  });

  it('knows an SVG after a byte-order mark, white space, an XML declaration, comments and a doctype', () => {
    const svg = '\uFEFF <?xml version="1.0"?>\n<!-- the agency -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<!-- b --><svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(imageTypeOf(Buffer.from(svg))).toBe('image/svg+xml');
    expect(imageTypeOf(Buffer.from('<svg>'))).toBe('image/svg+xml');
    for (const not of ['<svgx>', '<html><svg>', '<!-- never closed <svg>', 'plain text']) expect(imageTypeOf(Buffer.from(not))).toBeNull();
  });

  it('answers at once for thousands of comments that lead nowhere (no backtracking on the agency-chosen bytes)', () => {
    // A pattern of repeated lazy comment groups took seconds from 22 such comments and hours from 40.
    expect(imageTypeOf(Buffer.from(`${'<!---->'.repeat(580)}x`))).toBeNull();
    expect(imageTypeOf(Buffer.from(`${'<!-- -->'.repeat(500)}<svg>`))).toBe('image/svg+xml');
  });
});
