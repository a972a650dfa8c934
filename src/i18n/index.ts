import i18next, { type i18n as I18n } from 'i18next';
import { escapeHtml } from '../domain/html';
import { de } from './locales/de';
import { en, type Messages } from './locales/en';
import { es } from './locales/es';
import { fr } from './locales/fr';
import { it } from './locales/it';
import { pt } from './locales/pt';

/**
 * The languages a customer reads the platform in (pages, review-request mail and SMS, reports), through i18next
 * with one catalogue per language (src/i18n/locales). English is the reference and the fallback; a language outside
 * the six reads English.
 */
export const UI_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const CATALOGUES: Record<UiLanguage, Messages> = { en, es, fr, de, pt, it };

export const isUiLanguage = (code: unknown): code is UiLanguage => typeof code === 'string' && (UI_LANGUAGES as readonly string[]).includes(code);

/** The language to speak for a stored code (`es`, `es-MX`, `ES`); English for anything else. */
export function uiLanguage(code: string | null | undefined): UiLanguage {
  const base = (code ?? '').trim().toLowerCase().slice(0, 2);
  return isUiLanguage(base) ? base : 'en';
}

/** The 422 message of a language outside the six the pages and mail speak. */
export const INVALID_LANGUAGE = `The selected language is invalid: use one of ${UI_LANGUAGES.join(', ')} (ISO 639-1).`;

/** A language as given (trimmed, lower case), or null when none was given; `errors` names an unsupported one. */
export function languageOf(value: string | null | undefined, errors: Record<string, string[]>, field = 'language'): UiLanguage | null {
  if (value == null || value.trim() === '') return null;
  const code = value.trim().toLowerCase();
  if (!isUiLanguage(code)) {
    (errors[field] ??= []).push(INVALID_LANGUAGE);
    return null;
  }
  return code;
}

let instance: I18n | null = null;

function i18n(): I18n {
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      // Synchronous: the catalogues are in memory.
      initAsync: false,
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...UI_LANGUAGES],
      resources: Object.fromEntries(UI_LANGUAGES.map((l) => [l, { translation: CATALOGUES[l] }])),
      // Pages escape what they render (tHtml); mail and SMS are text.
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
    });
  }
  return instance;
}

/** Dotted keys of the catalogue ("feedback.thanksTitle"). */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
/** Keys, with the plural forms (`star_one`, `star_other`) asked for by their stem (`star` with a count). */
export type MessageKey = Leaves<Messages> | (Leaves<Messages> extends infer K ? (K extends `${infer S}_one` ? S : never) : never);

export type Vars = Record<string, string | number>;

/**
 * A message as text, placeholders filled. Text values go in verbatim: i18next fills a placeholder by replacing its
 * first occurrence in the text filled so far, so a value holding `{{month}}` (or `$t(...)`) would be filled or
 * nested in turn and the template's own placeholder left. Each text value is therefore handed to i18next as a
 * private-use mark (as `tHtml` does) and put in after it answers; numbers (`count`, formatted values) go in as they
 * are.
 */
export function t(language: string | null | undefined, key: MessageKey, vars: Vars = {}): string {
  const marks: Vars = {};
  const texts: string[] = [];
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value === 'string' && name !== 'count') {
      marks[name] = `\uE000${texts.length}\uE001`;
      texts.push(value);
    } else {
      marks[name] = value;
    }
  }
  const text = i18n().t(key, { lng: uiLanguage(language), ...marks });
  return texts.length === 0 ? text : text.replace(/\uE000(\d+)\uE001/g, (mark, i: string) => texts[Number(i)] ?? mark);
}

/**
 * A message as HTML: the catalogue's text escaped, each placeholder replaced by the HTML given for it (escape values
 * with `escapeHtml`, or wrap them: `{business: '<strong>' + escapeHtml(name) + '</strong>'}`).
 */
export function tHtml(language: string | null | undefined, key: MessageKey, html: Vars = {}): string {
  const marks: Vars = {};
  const names = Object.keys(html);
  names.forEach((name, i) => (marks[name] = `\uE000${i}\uE001`));
  if ('count' in html) marks.count = html.count;
  const text = escapeHtml(i18n().t(key, { lng: uiLanguage(language), ...marks }));
  return text.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => String(html[names[Number(i)]]));
}

/** A Translator bound to one language, for a page or a message. */
export interface Translator {
  language: UiLanguage;
  t(key: MessageKey, vars?: Vars): string;
  html(key: MessageKey, vars?: Vars): string;
  /** A date as the language writes it (`Intl.DateTimeFormat`, day month year, UTC). */
  date(d: Date): string;
  /** A number as the language writes it (`Intl.NumberFormat`). */
  number(n: number, opts?: Intl.NumberFormatOptions): string;
}

/**
 * The `Intl` locale whose dates and numbers each catalogue's language writes. The Portuguese catalogue speaks European
 * Portuguese ("grelha", "descarregar", "equipa"), so its dates and numbers are Portugal's (`pt-PT`: "1/10",
 * "10/2026", `12 345,5`) rather than the Brazilian ones `Intl` gives for a bare `pt` ("1 de out.", `12.345,5`); every
 * other language as it is.
 */
export const intlLocale = (language: string): string => (language === 'pt' ? 'pt-PT' : language);

export function translator(language: string | null | undefined): Translator {
  const lang = uiLanguage(language);
  const locale = intlLocale(lang);
  return {
    language: lang,
    t: (key, vars) => t(lang, key, vars),
    html: (key, vars) => tHtml(lang, key, vars),
    date: (d) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d),
    number: (n, opts) => new Intl.NumberFormat(locale, opts).format(n),
  };
}
