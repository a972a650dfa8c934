/**
 * The agency's brand colour in reports: a header band in the colour with text in white or near-black, whichever
 * contrasts more (WCAG 2 relative luminance), so any colour an agency picks stays readable (axe's colour-contrast
 * rule holds for every brand).
 */

/** The palette's blue, for agencies that set no colour. */
export const DEFAULT_BRAND_COLOR = '#1a73e8';
const DARK = '#1f2328';
const LIGHT = '#ffffff';

export const BRAND_COLOR = /^#[0-9a-f]{6}$/i;

/** WCAG 2 relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface BrandColors {
  /** The band's background: the brand colour. */
  band: string;
  /** The band's text: white or near-black, the one that contrasts more with the band. */
  onBand: string;
}

export function brandColors(color: string | null | undefined): BrandColors {
  const band = color && BRAND_COLOR.test(color) ? color.toLowerCase() : DEFAULT_BRAND_COLOR;
  return { band, onBand: contrast(band, LIGHT) >= contrast(band, DARK) ? LIGHT : DARK };
}
