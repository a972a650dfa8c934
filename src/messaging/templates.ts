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

/** Replaces the placeholders; an absent first name reads "there" ("Hi there,", in the language), an absent last name nothing. */
export function fill(template: string, v: TemplateValues): string {
  const values: Record<string, string> = {
    first_name: v.firstName?.trim() || t(v.language, 'invite.there'),
    last_name: v.lastName?.trim() || '',
    business_name: v.businessName,
    review_link: v.reviewLink,
    unsubscribe_link: v.unsubscribeLink,
  };
  return template
    .replace(/\{(first_name|last_name|business_name|review_link|unsubscribe_link)\}/g, (_m, key: string) => values[key])
    .replace(/[ \t]+([,.!?])/g, '$1');
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

export function renderText(step: Pick<CampaignStep, 'body'>, v: TemplateValues): Pick<OutgoingMessage, 'body'> {
  let body = fill(step.body?.trim() || defaultBody(v.language), v);
  if (!body.includes(v.reviewLink)) body += ` ${v.reviewLink}`;
  const hasStop = /\bSTOP\b/.test(body);
  if (!body.includes(v.unsubscribeLink)) {
    body += `\n${t(v.language, hasStop ? 'invite.smsUnsubscribe' : 'invite.smsStop', { link: v.unsubscribeLink })}`;
  } else if (!hasStop) {
    // The link is in the body already: the STOP line alone.
    body += `\n${t(v.language, 'invite.smsStopOnly')}`;
  }
  return { body };
}

export function render(channel: Channel, step: Pick<CampaignStep, 'subject' | 'body'>, v: TemplateValues): Omit<OutgoingMessage, 'to'> {
  return channel === 'email' ? renderEmail(step, v) : renderText(step, v);
}
