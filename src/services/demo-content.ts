/**
 * What the demo tenant's businesses read like: each organisation has a trade and a mix of customer languages, and
 * its reviews are made of sentences a customer of that trade writes in that language (praise for 4-5 stars,
 * complaints for 1-2, one of each joined by a contrast word for 3). The same trades name the business-profile search
 * keywords (src/providers/google/performance.sim-data.ts) and the competitors of the simulated map (src/providers/ranking/simulator.ts), so a
 * newcomer's first look reads true: a dentist is searched for as a dentist and competes with dentists.
 */
import type { Trade } from '../domain/trades';

export { tradeOfName, type Trade } from '../domain/trades';

export interface DemoBusiness {
  name: string;
  trade: Trade;
  locations: readonly string[];
  /** Share of the reviews in each language (sums to 1). */
  languages: Readonly<Partial<Record<DemoLanguage, number>>>;
}

export type DemoLanguage = 'en' | 'es' | 'fr' | 'de' | 'it';

export const DEMO_BUSINESSES: readonly DemoBusiness[] = [
  { name: 'Bright Smiles Dental', trade: 'dentist', locations: ['Downtown', 'Riverside'], languages: { en: 0.7, es: 0.3 } },
  { name: 'Harbor Vet Clinic', trade: 'vet', locations: ['Northside'], languages: { en: 0.75, fr: 0.25 } },
  { name: 'Sunrise Bakery', trade: 'bakery', locations: [], languages: { en: 0.6, de: 0.2, it: 0.2 } },
];

interface Phrases {
  praise: readonly string[];
  complaints: readonly string[];
  /** The contrast word of a 3-star review: "<praise>, but <complaint>". */
  but: string;
  titles: { good: readonly string[]; bad: readonly string[]; mixed: readonly string[] };
}

/** Sentences by trade and language: only the pairs the demo businesses use. */
export const PHRASES: Partial<Record<`${Trade}:${DemoLanguage}`, Phrases>> = {
  'dentist:en': {
    praise: [
      'The hygienist was gentle and explained every step.',
      'Dr. Lee is patient with nervous patients like me.',
      'Spotless clinic and the front desk was so friendly.',
      'They fitted me in the same day for a cracked tooth.',
      'Fair prices and no surprises on the bill.',
      'My whitening results look great, thank you!',
    ],
    complaints: [
      'I waited 50 minutes past my appointment time.',
      'The receptionist was rude on the phone.',
      'Nobody called me back about my insurance claim.',
      'Far too expensive for a simple cleaning.',
      'My filling fell out within two weeks.',
    ],
    but: 'but',
    titles: { good: ['Great dentist', 'Highly recommend'], bad: ['Disappointed', 'Not again'], mixed: ['Mixed feelings'] },
  },
  'dentist:es': {
    praise: [
      'La higienista fue muy amable y me explicó todo.',
      'La clínica está impecable y el trato es excelente.',
      'Me atendieron el mismo día por una urgencia, muchas gracias.',
      'Precios justos y un presupuesto claro desde el principio.',
      'El resultado del blanqueamiento es perfecto, lo recomiendo.',
    ],
    complaints: [
      'Esperé casi una hora aunque tenía cita.',
      'La recepcionista fue muy borde por teléfono.',
      'Nadie me llamó para darme los resultados.',
      'Carísimo para una simple limpieza.',
    ],
    but: 'pero',
    titles: { good: ['Muy recomendable'], bad: ['Decepcionante'], mixed: ['Regular'] },
  },
  'vet:en': {
    praise: [
      'The vet was so gentle with our anxious cat.',
      'They saw our puppy within the hour in an emergency.',
      'Clean waiting room and the nurses are lovely.',
      'Dr. Rossi took time to explain the treatment options.',
      'Reasonable prices for vaccinations and a check-up.',
      'They called the next day to see how Bella was doing.',
    ],
    complaints: [
      'We waited over an hour with a sick dog.',
      'The bill was much higher than the estimate.',
      'The receptionist was dismissive and unhelpful.',
      'Nobody told us the test results for a week.',
      'The treatment did not work and they would not listen.',
    ],
    but: 'but',
    titles: { good: ['Wonderful vets', 'Caring team'], bad: ['Very disappointed'], mixed: ['Okay visit'] },
  },
  'vet:fr': {
    praise: [
      'Vétérinaire très douce avec notre chat, je recommande.',
      'Accueil chaleureux et cabinet très propre.',
      'Ils ont pris notre chien en urgence le jour même, merci !',
      'Explications claires et tarifs raisonnables.',
    ],
    complaints: [
      'Attente interminable malgré le rendez-vous.',
      'Facture beaucoup trop chère pour une simple consultation.',
      'Accueil désagréable au téléphone.',
      'Aucune nouvelle après l’opération, il a fallu rappeler trois fois.',
    ],
    but: 'mais',
    titles: { good: ['Au top'], bad: ['Déçu'], mixed: ['Moyen'] },
  },
  'bakery:en': {
    praise: [
      'The sourdough is the best in town.',
      'Friendly staff and the croissants are always fresh.',
      'Lovely birthday cake, exactly what we ordered.',
      'Good prices for such quality bread.',
      'Quick service even when the line is long.',
    ],
    complaints: [
      'The bread was stale by the afternoon.',
      'Overpriced pastries and tiny portions.',
      'We waited 20 minutes and the staff ignored us.',
      'They got our cake order wrong and never apologised.',
      'Sticky tables and a dirty counter.',
    ],
    but: 'but',
    titles: { good: ['Best bakery', 'Delicious'], bad: ['Not impressed'], mixed: ['Hit and miss'] },
  },
  'bakery:de': {
    praise: [
      'Das beste Sauerteigbrot der Stadt, sehr lecker.',
      'Super freundliches Personal und alles sauber.',
      'Die Torte für den Geburtstag war perfekt.',
      'Faire Preise für diese Qualität.',
    ],
    complaints: [
      'Das Brot war am Nachmittag schon alt.',
      'Viel zu teuer für die kleinen Stücke.',
      'Lange Wartezeit und unfreundliche Bedienung.',
      'Unsere Bestellung war falsch und niemand hat sich entschuldigt.',
    ],
    but: 'aber',
    titles: { good: ['Sehr zu empfehlen'], bad: ['Enttäuschend'], mixed: ['Geht so'] },
  },
  'bakery:it': {
    praise: [
      'Cornetti freschissimi e personale gentilissimo.',
      'Il pane è buonissimo, lo consiglio.',
      'Torta di compleanno perfetta, grazie!',
      'Prezzi onesti per la qualità.',
    ],
    complaints: [
      'Pane vecchio già nel pomeriggio.',
      'Troppo caro per porzioni così piccole.',
      'Attesa lunga e commesse scortesi.',
      'Hanno sbagliato l’ordine della torta e nessuno si è scusato.',
    ],
    but: 'ma',
    titles: { good: ['Ottimo'], bad: ['Deludente'], mixed: ['Nella media'] },
  },
};

export interface DemoReviewText {
  title: string | null;
  message: string;
}

/** A review of `trade` in `language` for `rating` stars, its sentences chosen by `rand`. */
export function demoReviewText(trade: Trade, language: DemoLanguage, rating: number, rand: () => number): DemoReviewText {
  const phrases = PHRASES[`${trade}:${language}`] ?? PHRASES[`${trade}:en`]!;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const two = (list: readonly string[]): string => {
    const first = pick(list);
    const second = pick(list);
    return second === first || rand() < 0.4 ? first : `${first} ${second}`;
  };
  const withTitle = rand() < 0.25;
  if (rating >= 4) return { title: withTitle ? pick(phrases.titles.good) : null, message: two(phrases.praise) };
  if (rating <= 2) return { title: withTitle ? pick(phrases.titles.bad) : null, message: two(phrases.complaints) };
  const good = pick(phrases.praise).replace(/[.!]+$/u, '');
  const bad = pick(phrases.complaints);
  return { title: withTitle ? pick(phrases.titles.mixed) : null, message: `${good}, ${phrases.but} ${bad.charAt(0).toLowerCase()}${bad.slice(1)}` };
}

/** A language from a business's mix. */
export function demoLanguage(business: Pick<DemoBusiness, 'languages'>, rand: () => number): DemoLanguage {
  let r = rand();
  const entries = Object.entries(business.languages) as [DemoLanguage, number][];
  for (const [language, share] of entries) {
    if (r < share) return language;
    r -= share;
  }
  return entries[0][0];
}

/** The owner's short reply, in the review's language. */
export const THANKS: Record<DemoLanguage, (name: string) => string> = {
  en: (name) => `Thank you, ${name}!`,
  es: (name) => `¡Gracias, ${name}!`,
  fr: (name) => `Merci, ${name} !`,
  de: (name) => `Danke, ${name}!`,
  it: (name) => `Grazie, ${name}!`,
};
