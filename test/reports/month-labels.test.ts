import { intlLocale, translator, UI_LANGUAGES } from '../../src/i18n';
import { monthLabel } from '../../src/reports/charts';

/**
 * The months on the report charts' axes: "Oct 26" read as the 26th of October, so a label is the language's short
 * month with the whole year, and Portuguese reports write Portugal's dates.
 */
describe('month labels of the report charts', () => {
  it('writes the month and the whole year as each language does', () => {
    const labels = Object.fromEntries(UI_LANGUAGES.map((l) => [l, monthLabel(translator(l), '2026-10')]));
    expect(labels).toEqual({ en: 'Oct 2026', es: 'oct 2026', fr: 'oct. 2026', de: 'Okt. 2026', pt: '10/2026', it: 'ott 2026' });
    expect(monthLabel(translator('de'), '2026-03')).toBe('März 2026');
  });

  it('never writes a two-digit year that reads as a day', () => {
    for (const language of UI_LANGUAGES) {
      for (let m = 1; m <= 12; m++) expect(monthLabel(translator(language), `2026-${String(m).padStart(2, '0')}`)).toMatch(/2026/);
    }
  });

  it('takes European Portuguese for Portuguese reports, every other language as it is', () => {
    expect(UI_LANGUAGES.map(intlLocale)).toEqual(['en', 'es', 'fr', 'de', 'pt-PT', 'it']);
  });
});
