import { CATALOGUES, UI_LANGUAGES } from '../../src/i18n';
import { fill, renderEmail, renderText, SMS_BODY_MAX_CHARS, SMS_MAX_CHARS, textLengthOf } from '../../src/messaging/templates';

/**
 * Spaces in a filled review request. A global rule removed every space before "?", "!", "," and "." (meant to tidy
 * "Hi Ada ," when {last_name} is empty), which broke French typography, the catalogue's own default texts included
 * ("chez {business_name} ?" was sent as "chez Café Luz?"). Only the blank left by a placeholder that filled to
 * nothing goes now; every other space is the template's own (docs/decisions/review-requests.md, "Messages").
 */

const values = {
  firstName: 'Inès',
  lastName: null,
  businessName: 'Café Luz',
  reviewLink: 'https://reviews.agency.test/r/abc',
  unsubscribeLink: 'https://reviews.agency.test/u/tok',
};
const en = { ...values, firstName: 'Ada', businessName: 'Bright Smiles' };

describe('the French default texts keep their spaces before "?" and "!"', () => {
  const fr = { ...values, language: 'fr' };

  it('in the email subject and body', () => {
    const mail = renderEmail({ subject: '', body: '' }, fr);
    expect(mail.subject).toBe("Comment s'est passée votre visite chez Café Luz ?");
    expect(mail.subject).toBe(CATALOGUES.fr.invite.subject.replace('{business_name}', 'Café Luz'));
    expect(mail.body).toContain("Bonjour Inès, merci d'avoir choisi Café Luz ! Pourriez-vous prendre un instant pour nous dire ce que vous en avez pensé ? ");
    expect(mail.html).toContain('Café Luz ! Pourriez-vous');
  });

  it('in a text message, and with no first name ("à vous")', () => {
    const sms = renderText({ body: '' }, { ...fr, firstName: null }).body!;
    expect(sms.startsWith("Bonjour à vous, merci d'avoir choisi Café Luz ! Pourriez-vous prendre un instant pour nous dire ce que vous en avez pensé ? https://reviews.agency.test/r/abc\n")).toBe(true);
  });

  it('every language\'s default text is filled with its own spacing, only the placeholders replaced', () => {
    for (const language of UI_LANGUAGES) {
      const { subject, body, there } = CATALOGUES[language as 'en'].invite;
      const v = { ...values, firstName: null, language };
      const filled = (s: string) => s.replace(/\{first_name\}/g, there).replace(/\{business_name\}/g, 'Café Luz').replace(/\{review_link\}/g, values.reviewLink);
      expect(renderEmail({ subject: '', body: '' }, v).subject).toBe(filled(subject));
      expect(renderText({ body: '' }, v).body!.startsWith(`${filled(body)}\n`)).toBe(true);
    }
  });
});

describe('a placeholder that fills to nothing takes its blank with it', () => {
  it('"Hi {first_name} {last_name}, thanks" with no last name is "Hi Ada, thanks"', () => {
    expect(fill('Hi {first_name} {last_name}, thanks', en)).toBe('Hi Ada, thanks');
    expect(renderEmail({ subject: 'Hi {first_name} {last_name}, thanks', body: 'Hi {first_name} {last_name}, thanks' }, en).subject).toBe('Hi Ada, thanks');
    expect(renderText({ body: 'Hi {first_name} {last_name}, thanks' }, en).body!.startsWith('Hi Ada, thanks ')).toBe(true);
    // A last name there: as written.
    expect(fill('Hi {first_name} {last_name}, thanks', { ...en, lastName: 'Lovelace' })).toBe('Hi Ada Lovelace, thanks');
  });

  it('only the blank the empty placeholder leaves: the next space, the text\'s own, stays', () => {
    expect(fill('Bonjour {first_name} {last_name} !', values)).toBe('Bonjour Inès !');
    expect(fill('Merci {last_name} ?', values)).toBe('Merci ?');
    expect(fill('Dear {last_name} team,', en)).toBe('Dear team,');
    expect(fill('Hi {last_name}!', en)).toBe('Hi!');
    expect(fill('Hi {first_name}\t{last_name}.', en)).toBe('Hi Ada.');
    // At the start of a line, the blank after it.
    expect(fill('{last_name} thanks', en)).toBe('thanks');
    expect(fill('Hello,\n{last_name} {first_name} here', en)).toBe('Hello,\nAda here');
    // Never a line break.
    expect(fill('Hi {first_name}\n{last_name}\nThanks', en)).toBe('Hi Ada\n\nThanks');
  });
});

describe("an agency's own template is sent as written", () => {
  it('"Bonjour {first_name} !" keeps its space (email, text)', () => {
    expect(fill('Bonjour {first_name} !', values)).toBe('Bonjour Inès !');
    const mail = renderEmail({ subject: 'Votre avis compte , {first_name} ?', body: 'Bonjour {first_name} ! Un avis sur {business_name} ? {review_link}' }, values);
    expect(mail.subject).toBe('Votre avis compte , Inès ?');
    expect(mail.body.startsWith(`Bonjour Inès ! Un avis sur Café Luz ? ${values.reviewLink}\n`)).toBe(true);
    expect(renderText({ body: 'Bonjour {first_name} ! {review_link}' }, { ...values, firstName: null, language: 'fr' }).body!.startsWith(`Bonjour à vous ! ${values.reviewLink}\n`)).toBe(true);
  });

  it('spaces that are not a placeholder\'s, in any language, stay', () => {
    expect(fill('Thanks , {first_name} . See you !', en)).toBe('Thanks , Ada . See you !');
  });
});

describe('text length with the spaces kept', () => {
  /** A French step whose counted length is exactly the limit. */
  const frenchBody = (): string => {
    const words = 'Bonjour {first_name} {last_name} ! Que pensez-vous de {business_name} ? ';
    const tail = ' {review_link}';
    const body = `${words}${'y'.repeat(SMS_BODY_MAX_CHARS - textLengthOf(words + tail))}${tail}`;
    expect(textLengthOf(body)).toBe(SMS_BODY_MAX_CHARS);
    return body;
  };

  it('a French step at the limit with 255-character names fits, its spaces before "!" and "?" kept', () => {
    const long = { ...values, firstName: 'F'.repeat(255), lastName: 'L'.repeat(255), businessName: 'B'.repeat(255), language: 'fr' };
    const sms = renderText({ body: frenchBody() }, long).body!;
    expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(sms).toMatch(/^Bonjour F+… L+… ! Que pensez-vous de B+… \? y/);
    // Without a last name: its blank goes, the text's own stay.
    const noLast = renderText({ body: frenchBody() }, { ...long, lastName: null }).body!;
    expect(noLast.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(noLast).toMatch(/^Bonjour F+… ! Que pensez-vous de B+… \? y/);
  });

  it('the safety net (names cut to nothing) still fits and leaves no stray blank', () => {
    // Over the limit (saved before it counted the added text) with long names: names at most 20, else none.
    const body = `Bonjour {first_name} {last_name} ! ${'x'.repeat(1580)} {review_link}`;
    const sms = renderText({ body }, { ...values, firstName: 'F'.repeat(255), lastName: 'L'.repeat(255), language: 'fr' }).body!;
    expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(sms).toMatch(/^Bonjour (F+… L+… )?! x/);
  });
});
