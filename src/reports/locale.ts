/**
 * The `Intl` locale a report writes its dates in. Portuguese reports speak European Portuguese (the catalogue's
 * "grelha", "descarregar", "equipa"), so their dates are Portugal's (`pt-PT`: "1/10", "10/2026") rather than the
 * Brazilian ones `Intl` gives for a bare `pt` ("1 de out.", "out. de 2026"); every other language as it is.
 */
export const intlLocale = (language: string): string => (language === 'pt' ? 'pt-PT' : language);
