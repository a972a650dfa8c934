import type { CampaignStep, Channel } from '../models/campaign.model';
import type { OutgoingMessage } from './types';
import { escapeHtml as esc } from '../domain/html';
import { t, tHtml, uiLanguage } from '../i18n';

/**
 * Review-request messages from a campaign step. Templates may use `{first_name}`, `{last_name}`,
 * `{business_name}`, `{review_link}` and `{unsubscribe_link}` (see CampaignStep); unknown placeholders stay as
 * written. Whatever the template says, every message carries the review link and a working unsubscribe link:
 *
 * - email: the text part ends with an unsubscribe line, the HTML part with a visible "Unsubscribe" link, and the
 *   headers carry `List-Unsubscribe: <link>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058:
 *   mail clients offer a one-click unsubscribe that POSTs to the link);
 * - SMS / messaging app: the body ends with "Reply STOP to opt out" and the unsubscribe link.
 */
export interface TemplateValues {
  firstName: string | null;
  lastName: string | null;
  businessName: string;
  reviewLink: string;
  unsubscribeLink: string;
  /** The account's language (ISO 639-1): the default texts and the unsubscribe lines speak it (src/i18n). */
  language?: string | null;
}

/** The default subject and body of a step without its own, in a language. */
export const defaultSubject = (language?: string | null): string => t(language, 'invite.subject');
export const defaultBody = (language?: string | null): string => t(language, 'invite.body');

const PLACEHOLDER = /\{(first_name|last_name|business_name|review_link|unsubscribe_link)\}/g;
/** A blank within a line: a space, a tab, a no-break space (not a line break). */
const isBlank = (ch: string | undefined): boolean => ch !== undefined && ch !== '\n' && ch !== '\r' && /\s/.test(ch);

/**
 * Replaces the placeholders; an absent first name reads "there" ("Hi there,", in the language), an absent last name
 * nothing. A placeholder that fills to nothing takes the blank that set it off with it: the one before it ("Hi
 * {first_name} {last_name}, thanks" reads "Hi Ada, thanks", "Merci {last_name} !" reads "Merci !"), or at the start of
 * a line the one after it. Every other space is the template's own and stays as written: French puts one before
 * "?", "!", ":" and ";" ("chez {business_name} ?"), in the default texts and in an agency's templates alike.
 */
export function fill(template: string, v: TemplateValues, nameCap = Infinity): string {
  const values: Record<string, string> = {
    first_name: capped(v.firstName?.trim() || t(v.language, 'invite.there'), nameCap),
    last_name: capped(v.lastName?.trim() || '', nameCap),
    business_name: capped(v.businessName, nameCap),
    review_link: v.reviewLink,
    unsubscribe_link: v.unsubscribeLink,
  };
  let out = '';
  let rest = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    out += template.slice(rest, m.index);
    rest = m.index + m[0].length;
    const value = values[m[1]];
    if (value) {
      out += value;
      continue;
    }
    let end = out.length;
    while (isBlank(out[end - 1])) end--;
    out = out.slice(0, end);
    if (out === '' || out.endsWith('\n')) while (isBlank(template[rest])) rest++;
  }
  return out + template.slice(rest);
}

/** `s` in at most `max` UTF-16 units, ending "…" when cut (never inside a surrogate pair). */
function capped(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** Plain text to HTML: escaped, paragraphs kept, the two links clickable. */
function htmlOf(text: string, v: TemplateValues): string {
  const links = [v.reviewLink, v.unsubscribeLink];
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => {
      let html = esc(p).replace(/\n/g, '<br>');
      for (const link of links) {
        const e = esc(link);
        html = html.split(e).join(`<a href="${e}">${e}</a>`);
      }
      return `<p>${html}</p>`;
    })
    .join('\n');
  return `<!doctype html><html lang="${uiLanguage(v.language)}"><body style="font-family:system-ui,-apple-system,sans-serif;line-height:1.5;color:#1f2328">
${paragraphs}
<p style="margin-top:2em;font-size:.85em;color:#5b6470">${tHtml(v.language, 'invite.footerWhy', { business: esc(v.businessName) })}
<a href="${esc(v.unsubscribeLink)}">${tHtml(v.language, 'invite.footerLink')}</a> ${tHtml(v.language, 'invite.footerAfter')}</p>
</body></html>`;
}

export function renderEmail(step: Pick<CampaignStep, 'subject' | 'body'>, v: TemplateValues): Required<Pick<OutgoingMessage, 'subject' | 'body' | 'html' | 'headers'>> {
  let body = fill(step.body?.trim() || defaultBody(v.language), v);
  if (!body.includes(v.reviewLink)) body += `\n\n${v.reviewLink}`;
  const text = `${body}\n\n--\n${t(v.language, 'invite.textFooter', { link: v.unsubscribeLink })}`;
  return {
    subject: fill(step.subject?.trim() || defaultSubject(v.language), v).replace(/[\r\n]+/g, ' ').slice(0, 255),
    body: text,
    html: htmlOf(body, v),
    headers: {
      'List-Unsubscribe': `<${v.unsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * What a text message may be: Twilio refuses a body over 1,600 characters (error 21617; UTF-16 code units, so an
 * emoji is 2), and so does the simulator.
 */
export const SMS_MAX_CHARS = 1600;
/** What a `{review_link}` or `{unsubscribe_link}` is counted as when a step is saved: a PUBLIC_URL of up to 52 characters. */
export const SMS_LINK_CHARS = 100;
/**
 * Kept free for what every text gets besides the step's own words: the review link (a space and a link) and the
 * opt-out line ("Reply STOP to opt out or unsubscribe: <link>", the longest language's, on its own line).
 */
export const SMS_RESERVED_CHARS = 300;
/** The longest SMS / messaging-app step body, as textLengthOf counts it. */
export const SMS_BODY_MAX_CHARS = SMS_MAX_CHARS - SMS_RESERVED_CHARS;

/** A text step's body as the limit counts it: UTF-16 units (as the provider), each link placeholder as SMS_LINK_CHARS. */
export function textLengthOf(body: string): number {
  const links = body.match(/\{(review_link|unsubscribe_link)\}/g) ?? [];
  return body.length + links.reduce((n, p) => n + SMS_LINK_CHARS - p.length, 0);
}

/** The step's text (placeholders filled, names at most `nameCap` long) with the review link and the opt-out added. */
function composeText(template: string, v: TemplateValues, nameCap: number): string {
  // The step's own words decide whether it already tells how to opt out: a name or business name saying "STOP"
  // (filled in below) does not.
  const hasStop = /\bSTOP\b/.test(template);
  let body = fill(template, v, nameCap).trim();
  if (!body.includes(v.reviewLink)) body += `${body ? ' ' : ''}${v.reviewLink}`;
  if (!body.includes(v.unsubscribeLink)) {
    body += `\n${t(v.language, hasStop ? 'invite.smsUnsubscribe' : 'invite.smsStop', { link: v.unsubscribeLink })}`;
  } else if (!hasStop) {
    // The link is in the body already: the STOP line alone.
    body += `\n${t(v.language, 'invite.smsStopOnly')}`;
  }
  return body;
}

/** The largest n in [0, max] for which ok(n) holds (ok is monotonic), or -1 when ok(0) does not. */
function largest(max: number, ok: (n: number) => boolean): number {
  if (!ok(0)) return -1;
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first `units` UTF-16 units of a template, never ending inside a placeholder or a surrogate pair, with "…". */
function cutTemplate(template: string, units: number): string {
  let out = '';
  for (const ch of template) {
    if (out.length + ch.length > units) break;
    out += ch;
  }
  const open = out.lastIndexOf('{');
  if (open !== -1 && !out.includes('}', open) && /^\{[a-z_]*$/.test(out.slice(open))) out = out.slice(0, open);
  return out.length < template.length ? `${out.trimEnd()}…` : out;
}

/**
 * A text message that the provider takes (at most SMS_MAX_CHARS): the review link and the opt-out line are never
 * cut. When the filled text is too long, the filled-in names (first, last, business) are shortened, each to the same
 * longest length that fits, ending "…". Only when even that cannot fit (a step saved before the limit counted the
 * added text, or a PUBLIC_URL longer than SMS_LINK_CHARS allows for) is the step's own text cut at the end.
 */
export function renderText(step: Pick<CampaignStep, 'body'>, v: TemplateValues): Pick<OutgoingMessage, 'body'> {
  const template = step.body?.trim() || defaultBody(v.language);
  const fits = (s: string) => s.length <= SMS_MAX_CHARS;
  const whole = composeText(template, v, Infinity);
  if (fits(whole)) return { body: whole };
  const longestName = Math.max(v.firstName?.length ?? 0, v.lastName?.length ?? 0, v.businessName.length, 5);
  const cap = largest(longestName, (n) => fits(composeText(template, v, n)));
  if (cap >= 0) return { body: composeText(template, v, cap) };
  // Safety net: names at most 20 (else none), and as much of the step's own text as fits.
  for (const nameCap of [20, 0]) {
    const units = largest(template.length, (n) => fits(composeText(cutTemplate(template, n), v, nameCap)));
    if (units >= 0) return { body: composeText(cutTemplate(template, units), v, nameCap) };
  }
  return { body: composeText('', v, 0) };
}

export function render(channel: Channel, step: Pick<CampaignStep, 'subject' | 'body'>, v: TemplateValues): Omit<OutgoingMessage, 'to'> {
  return channel === 'email' ? renderEmail(step, v) : renderText(step, v);
}
