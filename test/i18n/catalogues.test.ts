import { CATALOGUES, t, tHtml, translator, uiLanguage, UI_LANGUAGES } from '../../src/i18n';
import { en } from '../../src/i18n/locales/en';

/**
 * Issue 19, item 4: English, Spanish, French, German, Portuguese and Italian complete. Every catalogue has exactly
 * English's keys (a missing or extra key fails here, as it fails the type check), no empty text, and every
 * placeholder of the English text (`{{business}}`, and the templates' `{first_name}`) in each translation.
 */
type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g)].map((m) => m[1] ?? m[2]).sort();

describe('message catalogues', () => {
  const reference = leaves(en as unknown as Tree);

  it('has the six languages', () => {
    expect([...UI_LANGUAGES]).toEqual(['en', 'es', 'fr', 'de', 'pt', 'it']);
  });

  it.each(UI_LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English and no other, each with text and the same placeholders', (language) => {
    const catalogue = leaves(CATALOGUES[language] as unknown as Tree);
    expect([...catalogue.keys()].sort()).toEqual([...reference.keys()].sort());
    const untranslated: string[] = [];
    for (const [key, text] of catalogue) {
      expect(text.trim()).not.toBe('');
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(reference.get(key)!) });
      if (text === reference.get(key) && text.includes(' ') && !/^\{\{\w+\}\}: /.test(text)) untranslated.push(key);
    }
    // A sentence left in English would be a miss (single words such as "Email" or "Communication" may be the same).
    expect(untranslated).toEqual([]);
    // The carriers' opt-out keyword stays STOP in every language.
    expect(catalogue.get('invite.smsStop')).toContain('STOP');
  });

  /**
   * Words of the informal register (and of Brazilian Portuguese), which the catalogues do not use: each language
   * speaks to its readers in one register, the formal one (business customers and their customers), pages, messages
   * and reports alike.
   */
  const word = (words: string) => new RegExp(`(?<![\\p{L}])(${words})(?![\\p{L}])`, 'iu');
  const OFF_REGISTER: Record<Exclude<(typeof UI_LANGUAGES)[number], 'en'>, { words: RegExp; phrases?: RegExp }> = {
    es: { words: word('tu|tus|te|ti|puedes|quieres|has|recibes|recibiste|fuiste|necesitas|darte|date|cuéntanos|cuéntale|inténtalo|vuelve|comprueba|introduce|deja|responde|conecta|usa|elige tu') },
    it: { words: word('tu|tuo|tua|tuoi|tue|ti|puoi|hai|sei|ricevi|rispondi|apri|scarica|scegli|accedi|ciao') },
    pt: { words: word('você|vocês|equipe|senha|conectar|conecte|conexão|estão sendo|em um minuto|baixar|arquivo|usuário|tela') },
    // "seit dem 9. Nov." as the other dates after "seit"; "Bewertungen vom Oktober 2026".
    de: { words: word('du|dein|deine|deinen|dir|dich'), phrases: /seit \{\{date\}\}|aus \{\{month\}\}/ },
    fr: { words: word('tu|ton|ta|tes|toi') },
  };

  it.each(Object.keys(OFF_REGISTER) as Array<keyof typeof OFF_REGISTER>)('%s speaks in one register: no informal (or other-variety) form in any string', (language) => {
    const { words, phrases } = OFF_REGISTER[language];
    // Placeholders ({{date}}, {first_name}) are not words of the language.
    const off = [...leaves(CATALOGUES[language] as unknown as Tree)]
      .filter(([, text]) => words.test(text.replace(/\{\{\w+\}\}|\{\w+\}/g, ' ')) || phrases?.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(off).toEqual([]);
  });

  it('answers each language, English for an unknown one, and plural forms by count', () => {
    expect(t('es', 'unsubscribe.button')).toBe(CATALOGUES.es.unsubscribe.button);
    expect(t('de-AT', 'unsubscribe.button')).toBe(CATALOGUES.de.unsubscribe.button);
    expect(t('nl', 'unsubscribe.button')).toBe('Unsubscribe');
    expect(t(null, 'unsubscribe.button')).toBe('Unsubscribe');
    expect(uiLanguage('PT')).toBe('pt');
    expect(t('en', 'feedback.star', { count: 1 })).toBe('1 star');
    expect(t('en', 'feedback.star', { count: 4 })).toBe('4 stars');
    expect(t('fr', 'feedback.star', { count: 4 })).not.toBe(t('fr', 'feedback.star', { count: 1 }).replace('1', '4'));
  });

  it('escapes the text and places HTML only where a placeholder stands', () => {
    const html = tHtml('en', 'unsubscribe.question', { business: '<strong>A &amp; B</strong>' });
    expect(html).toBe('Do you want to stop receiving review requests from <strong>A &amp; B</strong>?');
    expect(t('en', 'unsubscribe.question', { business: '<b>' })).toContain('<b>'); // text for mail is not escaped
  });

  it('writes dates and numbers as each language does', () => {
    const day = new Date('2026-03-05T12:00:00Z');
    expect(translator('en').date(day)).toBe('March 5, 2026');
    expect(translator('de').date(day)).toBe('5. März 2026');
    expect(translator('fr').date(day)).toBe('5 mars 2026');
    expect(translator('de').number(1234.5)).toBe('1.234,5');
    expect(translator('en').number(1234.5)).toBe('1,234.5');
    // European Portuguese, as the catalogue is written: a space (U+00A0) groups from five digits.
    expect(translator('pt').number(12345.5)).toBe('12\u00a0345,5');
    expect(translator('pt').number(1234.5)).toBe('1234,5');
  });
});
