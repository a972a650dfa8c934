import { escapeHtml as esc } from '../domain/html';
import { brandColors } from './brand';
import type { Kpi } from './pdf';

/**
 * The body of a monthly report mail (the organisation's and the scan's), as text and HTML from the same parts: the
 * agency's name in a band of its colour, a few paragraphs, the figures as a table, lists, a link, and why the owner
 * gets it. The report itself travels as the attached PDF.
 */
export interface ReportMailParts {
  /** The report's language (`<html lang>`). */
  language: string;
  subject: string;
  brand: { name: string; color: string | null };
  paragraphs: string[];
  /** The figures as a table; left out with no kpis (a scan without a business to track has none to give). */
  figures: { title: string; kpis: Kpi[] };
  /** Titled lists; `empty` stands in for a list without items. */
  lists?: Array<{ title: string; items: string[]; empty: string }>;
  link?: { label: string; url: string };
  /** Lines after the link, before the footer. */
  notes?: string[];
  /** The footer: why this owner gets the mail. */
  why: string;
}

const MUTED = 'color:#5b6470';

export function reportMail(parts: ReportMailParts): { subject: string; text: string; html: string } {
  const { subject, figures, lists = [], link, notes = [] } = parts;
  const hasFigures = figures.kpis.length > 0;
  const text = [
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(hasFigures ? [figures.title, ...figures.kpis.map((k) => `- ${k.label}: ${k.value} (${k.previous})`), ''] : []),
    ...lists.flatMap((l) => [l.title, ...(l.items.length ? l.items.map((i) => `- ${i}`) : [l.empty]), '']),
    ...(link ? [`${link.label}: ${link.url}`, ''] : []),
    ...notes.flatMap((n) => [n, '']),
    '--',
    parts.why,
  ].join('\n');
  const band = brandColors(parts.brand.color);
  const kpis = figures.kpis
    .map((k) => `<tr><th scope="row" style="text-align:left;padding:4px 12px 4px 0;font-weight:normal;${MUTED}">${esc(k.label)}</th><td style="padding:4px 12px 4px 0;font-weight:bold">${esc(k.value)}</td><td style="${MUTED}">${esc(k.previous)}</td></tr>`)
    .join('');
  const h2 = (title: string) => `<h2 style="font-size:16px">${esc(title)}</h2>`;
  const html = `<!doctype html><html lang="${esc(parts.language)}"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="margin:0;font-family:Helvetica,Arial,sans-serif;color:#1f2328;line-height:1.5">
<div style="background:${band.band};color:${band.onBand};padding:16px 24px;font-weight:bold">${esc(parts.brand.name)}</div>
<div style="padding:16px 24px;max-width:640px">
${parts.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('')}
${hasFigures ? `${h2(figures.title)}<table>${kpis}</table>\n` : ''}${lists.map((l) => `${h2(l.title)}\n${l.items.length ? `<ul>${l.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : `<p>${esc(l.empty)}</p>`}\n`).join('')}${
    link ? `<p><a href="${esc(link.url)}" style="font-weight:bold">${esc(link.label)}</a></p>\n` : ''
  }${notes.map((n) => `<p>${esc(n)}</p>\n`).join('')}<p style="${MUTED};font-size:12px;border-top:1px solid #e3e5e8;padding-top:8px">${esc(parts.why)}</p>
</div></body></html>`;
  return { subject, text, html };
}
