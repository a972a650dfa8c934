import { CATALOGUES, t, translator } from '../../src/i18n';

/**
 * `t()` puts text values in verbatim: i18next fills a placeholder by replacing its first occurrence in the text
 * filled so far, so a value that holds a placeholder of the template (`{{month}}`) must neither be filled itself nor
 * leave the template's own placeholder unfilled.
 */
/** A template filled in one pass (each placeholder once, values never read again). */
const fill = (template: string, vars: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (m, name: string) => vars[name] ?? m);

describe('t() with values that look like placeholders', () => {
  it('keeps a value holding a later placeholder verbatim and fills the template', () => {
    expect(t('en', 'report.title', { business: 'Bar {{month}}', month: 'Oct' })).toBe('Bar {{month}}: review report, Oct');
  });

  it('keeps a value holding an earlier placeholder verbatim and fills the template', () => {
    expect(t('en', 'report.title', { business: 'Bar', month: '{{business}}' })).toBe('Bar: review report, {{business}}');
  });

  it('keeps nesting and i18next syntax in values verbatim, in every language', () => {
    const odd = 'Café $t(connect.title) {{count}} {{- month}}';
    for (const language of ['en', 'es', 'de'] as const) {
      const expected = fill(CATALOGUES[language].report.title, { business: odd, month: 'Oct' });
      expect(t(language, 'report.title', { business: odd, month: 'Oct' })).toBe(expected);
    }
    expect(translator('fr').t('report.title', { business: 'A {{month}}', month: 'B' })).toBe(fill(CATALOGUES.fr.report.title, { business: 'A {{month}}', month: 'B' }));
  });

  it('still fills numbers and plural forms as before', () => {
    expect(t('en', 'feedback.star', { count: 1 })).toBe('1 star');
    expect(t('en', 'feedback.star', { count: 4 })).toBe('4 stars');
    expect(t('en', 'report.previous', { month: 'Sep', value: 4.5 })).toBe('Sep: 4.5');
  });
});
