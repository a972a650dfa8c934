/**
 * The review-domain lexicon: the phrases customers of local businesses use in the six supported languages that a
 * general-purpose sentiment lexicon misses or misreads ("je recommande", "nunca más", "nicht empfehlenswert", "à
 * éviter"), the negators whose scope this analyser bounds itself, the contrast words that split a review into
 * clauses, and the words that name each aspect. It is data, read by src/analytics/sentiment.ts on top of the
 * language packs of @nlpjs (their lexicons, tokenizers and stemmers).
 *
 * Written from how reviews are phrased, before the evaluation sets (test/fixtures/sentiment-*.json) existed, and
 * not edited to fit them (docs/decisions/analytics.md, "Sentiment in six languages", says how the analyser is measured).
 *
 * Entries are matched against the normalised text (lower case, accents removed, ß as ss): one or more words, where
 * a word ending in `*` matches any word starting with it. Weights are in -1..1 units of the clause score.
 */

export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

export const ASPECTS = ['staff', 'price', 'wait_time', 'cleanliness', 'quality', 'communication'] as const;
export type Aspect = (typeof ASPECTS)[number];

export interface LanguageLexicon {
  /** Phrases and words with their weight (positive or negative). */
  phrases: Record<string, number>;
  /** Words that turn the next few words around ("not", "no", "nie"). */
  negators: string[];
  /** Words that end a clause: "the food was great but the service was slow" is two opinions. */
  contrasts: string[];
  /** Words that name each aspect. */
  aspects: Record<Aspect, string[]>;
  /** Phrases whose negator negates nothing: "nicht nur ... sondern auch" (not only ... but also). */
  notNegating?: string[];
  /**
   * Negation after the opinion word, for a language that puts its negator after the verb (German's verb-second
   * order: "Ich empfehle diese Praxis nicht", "Empfehlenswert ist das nicht"). A negator here turns back the nearest
   * opinion word before it in the same part of the clause when it negates nothing after it and stands at that part's
   * end (or before a verb particle or infinitive: "Ich empfehle es nicht weiter").
   */
  trailingNegation?: {
    negators: string[];
    /** Words that start a new part of the clause, as a comma does: the negator does not reach back across them. */
    stops: string[];
    /** Words that make a following negator a comparison rather than a negation: "So gut habe ich noch nie gegessen". */
    notAfter: string[];
    /**
     * Subject pronouns, and the finite verbs they follow inside one clause ("Zufrieden war ich nicht"). A subject
     * pronoun after the opinion word and not after one of these verbs starts a new clause a missing comma ran on
     * into ("Sehr freundlich ich musste nicht warten"): the negator does not reach back across it.
     */
    subjects: string[];
    finiteVerbs: string[];
    /**
     * The only words that may follow the negator in its part of the clause: verb particles, infinitives and
     * participles that end the negated verb ("nicht weiter", "nicht mehr", "nicht empfehlen"). Any other word after it
     * is what the negator negates ("die Wartezeit war nicht lang", "tat gar nicht weh"): it reaches back to nothing.
     */
    tail: string[];
  };
}

const en: LanguageLexicon = {
  phrases: {
    'highly recommend*': 1, 'would recommend': 0.8, 'recommend*': 0.6, 'not recommend*': -1, "wouldn't recommend*": -1,
    'never again': -1, 'never going back': -1, 'will not return': -1, "won't be back": -1, 'will be back': 0.7,
    'coming back': 0.5, 'go back': 0.2, 'waste of': -0.9, 'rip off': -1, 'ripoff': -1, 'overpriced': -0.8, 'avoid': -0.8,
    'stay away': -1, 'five stars': 0.8, 'top notch': 0.9, 'above and beyond': 1, 'thank you': 0.5, 'thanks': 0.4,
    'no show': -0.6, 'hung up': -0.7, 'nobody answered': -0.7, 'never called back': -0.9, 'took forever': -0.8,
    'long wait': -0.7, 'no wait': 0.5, 'on time': 0.5, 'spotless': 0.8, 'filthy': -0.9, 'dirty': -0.8, 'clean': 0.5,
    'affordable': 0.6, 'reasonable price*': 0.6, 'fair price*': 0.6, 'expensive': -0.5, 'rude': -0.9, 'friendly': 0.6,
    'helpful': 0.6, 'professional': 0.6, 'unprofessional': -0.9, 'disappoint*': -0.8, 'ok': 0.1, 'okay': 0.1, 'fine': 0.15,
    'meh': -0.2, 'mediocre': -0.5, 'not worth': -0.8, 'worth it': 0.6, 'ignored': -0.7, 'scam': -1, 'lovely': 0.7,
    'gentle': 0.6, 'caring': 0.7, 'kind': 0.6, 'thorough': 0.6, 'patient with': 0.5, 'took time': 0.5, 'dismissive': -0.8,
    'stale': -0.7, 'never apologi*': -0.8, 'fresh': 0.5, 'delicious': 0.9,
  },
  negators: ['not', 'no', 'never', "n't", 'nobody', 'nothing', 'hardly', 'without', 'nor', 'none', 'neither'],
  contrasts: ['but', 'however', 'although', 'though', 'yet', 'except', 'whereas', 'unfortunately'],
  aspects: {
    staff: ['staff', 'team', 'employee*', 'receptionist*', 'reception', 'front desk', 'waiter*', 'waitress*', 'server*', 'doctor*', 'dr', 'dentist*', 'hygienist*', 'vet', 'vets', 'nurse*', 'technician*', 'mechanic*', 'stylist*', 'barber*', 'trainer*', 'coach*', 'lawyer*', 'attorney*', 'pharmacist*', 'plumber*', 'manager*', 'owner*', 'service', 'people', 'crew', 'guy*', 'lady', 'ladies', 'she', 'he', 'they were', 'polite', 'rude', 'friendly', 'helpful', 'coach', 'nobody'],
    price: ['price*', 'pric*', 'cost*', 'expensive', 'cheap*', 'affordable', 'overpriced', 'bill*', 'charge*', 'fee*', 'value', 'money', 'quote*', 'invoice*', 'rip off', 'ripoff', 'paid', 'pay', 'retainer', 'worth', 'charged', 'fees', 'penny', 'membership'],
    wait_time: ['wait*', 'waited', 'queue*', 'line', 'late', 'delay*', 'slow*', 'quick*', 'fast', 'on time', 'punctual*', 'took forever', 'hours', 'minutes', 'appointment time', 'same day', 'same evening', 'within an hour', 'in and out', 'took', 'longer', 'days', 'weeks', 'months', 'no-show', 'no show', 'busy', 'rescheduling', 'reschedul*'],
    cleanliness: ['clean*', 'dirty', 'filthy', 'spotless', 'hygien*', 'tidy', 'messy', 'smell*', 'stink*', 'dust*', 'sanit*', 'mess', 'stain*', 'mould', 'mold', 'grime', 'grimy', 'disgusting', 'smells'],
    quality: ['quality', 'food', 'meal*', 'dish*', 'result*', 'work', 'job', 'repair*', 'haircut*', 'cut', 'color', 'colour', 'treatment*', 'room*', 'bed*', 'equipment', 'product*', 'workmanship', 'fixed', 'taste*', 'delicious', 'coffee', 'pizza', 'fix*', 'leak*', 'hair', 'look*', 'class*', 'surgery', 'broken', 'out of order', 'works', 'worked', 'install*', 'exactly'],
    communication: ['communicat*', 'explain*', 'call*', 'phone*', 'email*', 'answer*', 'respon*', 'informed', 'updates', 'listen*', 'told', 'inform*', 'contact*', 'reply', 'replied', 'text*', 'kept me informed', 'updated', 'honest', 'chase*', 'said', 'shrugged'],
  },
};

const es: LanguageLexicon = {
  phrases: {
    'recomiendo': 0.8, 'recomendad*': 0.7, 'recomendable': 0.7, 'lo recomiendo': 0.9, 'super recomendable': 1, 'no lo recomiendo': -1,
    'no recomiendo': -1, 'nada recomendable': -1, 'nunca mas': -1, 'no vuelvo': -1, 'no volvere': -1, 'volvere': 0.7,
    'volveremos': 0.7, 'un desastre': -1, 'desastre': -0.9, 'pesim*': -1, 'horrible*': -1, 'fatal': -0.9, 'malisim*': -1,
    'mal': -0.6, 'mala': -0.6, 'malo': -0.6, 'malos': -0.6, 'malas': -0.6, 'estafa*': -1, 'timo': -1, 'carisim*': -0.8, 'caro': -0.5, 'cara': -0.4,
    'caros': -0.5, 'barato': 0.4, 'economico': 0.4, 'buen precio': 0.7, 'precio justo': 0.6, 'excelente*': 1, 'genial*': 0.9,
    'estupend*': 0.9, 'maravillos*': 1, 'increible*': 0.8, 'encantad*': 0.8, 'encanto': 0.8, 'encanta': 0.8, 'amable*': 0.7,
    'simpatic*': 0.7, 'atent*': 0.6, 'profesional*': 0.6, 'buenisim*': 1, 'bueno': 0.5, 'buena': 0.5, 'buen': 0.5, 'buenos': 0.5, 'buenas': 0.4,
    'perfect*': 0.9, 'de diez': 1, 'de 10': 1, 'gracias': 0.5, 'muchas gracias': 0.7, 'limpi*': 0.5, 'sucio*': -0.8, 'sucia*': -0.8,
    'mala educacion': -0.9, 'maleducad*': -0.9, 'grosero*': -0.9, 'borde': -0.6, 'esperar mucho': -0.7, 'mucha espera': -0.7,
    'tardaron': -0.5, 'lento*': -0.6, 'lenta*': -0.6, 'rapid*': 0.5, 'puntual*': 0.5, 'decepcion*': -0.9, 'regular': -0.2, 'normalito': -0.1,
    'correcto': 0.2, 'bien': 0.4, 'muy bien': 0.7, 'nada mal': 0.6, 'no esta mal': 0.5, 'vale la pena': 0.7, 'no vale la pena': -0.8,
    'ni caso': -0.7, 'no contestan': -0.7, 'nadie contesta': -0.8, 'ignoraron': -0.7, 'trato': 0.2, 'un placer': 0.8, 'fantastic*': 1,
  },
  negators: ['no', 'nunca', 'jamas', 'nada', 'nadie', 'ni', 'sin', 'tampoco', 'ningun', 'ninguna', 'ninguno'],
  contrasts: ['pero', 'aunque', 'sin embargo', 'sino', 'excepto', 'salvo', 'lamentablemente', 'desgraciadamente'],
  aspects: {
    staff: ['personal', 'equipo', 'empleado*', 'recepcion*', 'recepcionista*', 'camarer*', 'doctor*', 'doctora*', 'dentista*', 'veterinari*', 'enfermer*', 'mecanico*', 'peluquer*', 'entrenador*', 'abogad*', 'farmaceutic*', 'fontaner*', 'dueno*', 'duena*', 'encargad*', 'chicas', 'chicos', 'trato', 'atencion', 'atendieron', 'atendio', 'servicio', 'amable*', 'atent*', 'monitor*', 'majo', 'maja', 'simpatic*', 'borde*', 'mentiros*', 'crack', 'me atendio', 'nos atendio'],
    price: ['precio*', 'caro*', 'cara*', 'carisim*', 'barat*', 'economic*', 'cuenta', 'factura*', 'presupuesto*', 'tarifa*', 'coste*', 'cobran', 'cobraron', 'dinero', 'estafa*', 'calidad precio', 'euros', 'pague', 'pagar', 'honorarios', 'cuota', 'oferta', 'provision', 'subieron'],
    wait_time: ['espera*', 'esperar', 'esperamos', 'espere', 'esperando', 'cola', 'tarde', 'retraso*', 'lent*', 'rapid*', 'puntual*', 'tardaron', 'tarda*', 'minutos', 'horas', 'demora*', 'dias', 'semana*', 'meses', 'cita', 'tardo', 'mismo dia', 'llena', 'no aparecio'],
    cleanliness: ['limpi*', 'sucio*', 'sucia*', 'suciedad', 'higiene', 'higienic*', 'olor*', 'polvo', 'ordenad*', 'asco', 'barro', 'impecable*', 'mugre*', 'manchad*'],
    quality: ['calidad', 'comida', 'plato*', 'resultado*', 'trabajo', 'reparacion*', 'arreglo*', 'arreglaron', 'corte', 'tinte', 'tratamiento*', 'habitacion*', 'cama*', 'producto*', 'sabor*', 'rico', 'delicios*', 'cafe', 'instalaciones', 'maquinas', 'pelo', 'mechas', 'color', 'arreglo', 'arregl*', 'funciona*', 'casero', 'abundante', 'aranazo', 'pieza', 'resultado', 'crema'],
    communication: ['comunicacion', 'explic*', 'llam*', 'telefono', 'correo*', 'contest*', 'respond*', 'respuesta*', 'inform*', 'escuch*', 'avisaron', 'avisar', 'whatsapp', 'mensaje*', 'asesor*', 'claros', 'claro', 'sorpresas', 'dijeron', 'me dijo', 'nos dijo', 'avis*', 'presupuesto detallado'],
  },
};

const fr: LanguageLexicon = {
  phrases: {
    'je recommande': 0.9, 'recommande': 0.7, 'je vous recommande': 0.9, 'a recommander': 0.9, 'recommandable': 0.7, 'je ne recommande pas': -1,
    'ne recommande pas': -1, 'a eviter': -1, 'a fuir': -1, 'fuyez': -1, 'plus jamais': -1, 'je ne reviendrai pas': -1, 'je reviendrai': 0.7,
    'nous reviendrons': 0.7, 'arnaque*': -1, 'escroc*': -1, 'honteux': -1, 'inadmissible': -1, 'inacceptable': -1, 'lamentable': -1,
    'decevant*': -0.9, 'decu*': -0.9, 'deception': -0.9, 'nul': -0.9, 'nulle': -0.9, 'horrible': -1, 'catastroph*': -1, 'mauvais*': -0.7,
    'desagreable*': -0.8, 'impoli*': -0.8, 'malpoli*': -0.9, 'sale': -0.7, 'sales': -0.7, 'salete': -0.8, 'propre*': 0.5, 'impeccable*': 0.9,
    'cher': -0.5, 'chere': -0.5, 'chers': -0.5, 'trop cher': -0.8, 'hors de prix': -0.9, 'pas cher': 0.5, 'bon rapport qualite prix': 0.9,
    'prix raisonnable*': 0.6, 'excellent*': 1, 'super': 0.8, 'genial*': 0.9, 'parfait*': 0.9, 'top': 0.8, 'au top': 0.9, 'formidable*': 0.9,
    'merveilleu*': 1, 'magnifique*': 0.9, 'adorable*': 0.8, 'sympa*': 0.7, 'aimable*': 0.7, 'gentil*': 0.7, 'chaleureu*': 0.7, 'accueillant*': 0.7,
    'professionnel*': 0.6, 'competent*': 0.6, 'bon': 0.5, 'bonne': 0.5, 'bons': 0.5, 'bonnes': 0.5, 'tres bien': 0.7, 'bien': 0.4, 'merci': 0.5,
    'satisfait*': 0.7, 'ravi*': 0.8, 'content*': 0.6, 'pas mal': 0.5, 'moyen*': -0.2, 'correct*': 0.2, 'sans plus': -0.2, 'lent*': -0.6,
    'rapide*': 0.5, 'ponctuel*': 0.5, 'attente interminable': -0.9, 'longue attente': -0.7, 'on attend': -0.4, 'injoignable*': -0.8,
    'ne repond*': -0.8, 'aucune reponse': -0.8, 'ignore*': -0.6, 'delicieu*': 0.9, 'froid': -0.3, 'a la hauteur': 0.6,
  },
  negators: ['ne', 'pas', 'jamais', 'aucun', 'aucune', 'rien', 'sans', 'ni', 'personne', 'guere'],
  contrasts: ['mais', 'cependant', 'pourtant', 'toutefois', 'neanmoins', 'malheureusement', 'sauf', 'par contre', 'en revanche', 'bien que'],
  aspects: {
    staff: ['personnel', 'equipe*', 'employe*', 'accueil', 'receptionniste*', 'secretaire*', 'serveu*', 'serveuse*', 'docteur*', 'medecin*', 'dentiste*', 'veterinaire*', 'infirmier*', 'infirmiere*', 'mecanicien*', 'garagiste*', 'coiffeu*', 'coach*', 'avocat*', 'pharmacien*', 'plombier*', 'patron*', 'gerant*', 'proprietaire*', 'service', 'maitre', 'avocate', 'aimable*', 'sympa*', 'desagreable*', 'disponible', 'il a', 'elle a'],
    price: ['prix', 'cher', 'chere', 'chers', 'tarif*', 'facture*', 'devis', 'cout*', 'argent', 'arnaque*', 'qualite prix', 'addition', 'euros', 'honoraires', 'vol', 'preleve*', 'prelev*', 'abonnement', 'honnete'],
    wait_time: ['attente', 'attendre', 'attendu', 'attend', 'attendons', 'file', 'retard*', 'lent*', 'rapide*', 'ponctuel*', 'minutes', 'heures', 'delai*', 'jour meme', 'dans la journee', 'semaine*', 'mois', 'jours', 'rdv', 'rendez vous', 'rapidement', 'longtemps'],
    cleanliness: ['propre*', 'proprete', 'sale', 'sales', 'salete', 'hygiene', 'odeur*', 'poussiere', 'impeccable*', 'nettoy*', 'tache*', 'vetuste', 'crasse', 'nickel'],
    quality: ['qualite', 'nourriture', 'repas', 'plat*', 'cuisine', 'resultat*', 'travail', 'reparation*', 'coupe', 'couleur', 'soin*', 'traitement*', 'chambre*', 'lit*', 'produit*', 'gout', 'delicieu*', 'cafe', 'materiel', 'prestation*', 'cheveux', 'voiture', 'pret', 'prete', 'pose', 'repar*', 'rupture', 'seance*', 'suivi medical'],
    communication: ['communication', 'expliqu*', 'explication*', 'appel*', 'telephone*', 'mail*', 'repond*', 'reponse*', 'inform*', 'ecoute*', 'joignable', 'injoignable*', 'prevenu*', 'rappel*', 'nouvelles', 'suivi', 'mails', 'rappele', 'astuces', 'compris', 'clairs', 'clair', 'dit que'],
  },
};

const de: LanguageLexicon = {
  phrases: {
    'empfehlenswert': 0.8, 'sehr zu empfehlen': 1, 'zu empfehlen': 0.8, 'empfehle*': 0.8, 'weiterempfehlen': 0.8, 'nicht empfehlenswert': -1,
    'nicht zu empfehlen': -1, 'kann ich nicht empfehlen': -1, 'nie wieder': -1, 'nie mehr': -0.9, 'finger weg': -1, 'abzocke*': -1,
    'betrug': -1, 'frechheit': -1, 'unverschamt*': -1, 'katastroph*': -1, 'enttausch*': -0.9, 'schlecht*': -0.8, 'mies*': -0.9,
    'schrecklich*': -1, 'furchtbar*': -1, 'unfreundlich*': -0.9, 'unhoflich*': -0.9, 'arrogant*': -0.8, 'schmutzig*': -0.8, 'dreckig*': -0.9,
    'sauber*': 0.5, 'teuer': -0.5, 'zu teuer': -0.8, 'uberteuert': -0.9, 'gunstig*': 0.5, 'preiswert*': 0.6, 'fair*': 0.5, 'preis leistung': 0.3,
    'toll*': 0.9, 'super': 0.8, 'klasse': 0.8, 'spitze': 0.9, 'hervorragend*': 1, 'ausgezeichnet*': 1, 'perfekt*': 0.9, 'wunderbar*': 1,
    'freundlich*': 0.7, 'nett*': 0.6, 'hilfsbereit*': 0.7, 'kompetent*': 0.7, 'professionell*': 0.6, 'zufrieden*': 0.7, 'gut': 0.5, 'gute': 0.5,
    'guter': 0.5, 'gutes': 0.5, 'sehr gut': 0.8, 'danke': 0.5, 'vielen dank': 0.7, 'lecker*': 0.8, 'okay': 0.1, 'ok': 0.1, 'in ordnung': 0.2,
    'geht so': -0.2, 'mittelmassig*': -0.4, 'langsam*': -0.6, 'schnell*': 0.5, 'punktlich*': 0.5, 'lange wartezeit*': -0.7,
    'ewig gewartet': -0.9, 'nicht erreichbar': -0.8, 'keine antwort': -0.8, 'kein ruckruf': -0.8, 'wieder kommen': 0.6, 'wiederkommen': 0.6,
    'gerne wieder': 0.8, 'jederzeit wieder': 0.9, 'nicht schlecht': 0.5, 'lohnt sich': 0.7, 'sehr empfehlen': 0.9, 'ungenie*': -0.8,
    // Praise whose negator is part of the phrase ("couldn't be better"), which trailing negation would turn around.
    'besser geht es nicht': 1, 'besser geht s nicht': 1, 'besser geht* nicht': 1,
  },
  negators: ['nicht', 'niemand', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'nie', 'niemals', 'nichts', 'ohne', 'weder', 'kaum'],
  contrasts: ['aber', 'jedoch', 'allerdings', 'leider', 'trotzdem', 'dennoch', 'obwohl', 'ausser', 'sondern'],
  notNegating: ['nicht nur', 'noch nie so', 'noch niemals so'],
  trailingNegation: {
    negators: ['nicht', 'nie', 'niemals'],
    stops: ['und', 'oder', 'aber', 'sondern', 'denn', 'weil', 'dass', 'wenn', 'obwohl', 'sowie'],
    notAfter: ['noch'],
    subjects: ['ich', 'wir', 'man', 'du', 'er'],
    finiteVerbs: [
      'bin', 'bist', 'ist', 'sind', 'seid', 'war', 'waren', 'hab', 'habe', 'hast', 'hat', 'haben', 'hatte*', 'wird', 'werde*', 'wurde*',
      'kann', 'konnte*', 'konnen', 'muss', 'musste*', 'mussen', 'will', 'wollte*', 'soll', 'sollte*', 'darf', 'durfte*', 'mag', 'mochte*',
      'fand', 'finde*', 'fuhle*', 'fuhlte*', 'gab', 'gibt',
    ],
    tail: ['weiter', 'mehr', 'wieder', 'weiterempfehlen', 'empfehlen', 'empfohlen', 'weiterempfohlen', 'sein', 'gewesen', 'werden', 'geworden', 'wirklich', 'unbedingt', 'gerade'],
  },
  aspects: {
    staff: ['personal', 'team', 'mitarbeiter*', 'empfang', 'rezeption', 'bedienung', 'kellner*', 'arzt', 'arztin', 'zahnarzt*', 'tierarzt*', 'schwester*', 'helferin*', 'mechaniker*', 'friseur*', 'friseurin*', 'trainer*', 'anwalt*', 'anwaltin', 'apotheker*', 'installateur*', 'klempner*', 'chef*', 'inhaber*', 'service', 'dame*', 'herr', 'handwerker*', 'notdienst', 'frau', 'pampig', 'herzlich*', 'freundlich*', 'unfreundlich*', 'einfuhlsam*', 'beraten'],
    price: ['preis*', 'teuer', 'uberteuert', 'gunstig*', 'preiswert*', 'rechnung*', 'kosten*', 'kostenvoranschlag', 'gebuhr*', 'geld', 'abzocke*', 'preis leistung', 'euro', 'berechnet', 'vorschuss', 'abgebucht', 'bezahlt', 'gezahlt', 'kosten', 'transparent'],
    wait_time: ['wartezeit*', 'warten', 'gewartet', 'wartet', 'wartezimmer', 'verspatung*', 'verspatet', 'langsam*', 'schnell*', 'punktlich*', 'minuten', 'stunden', 'termin*', 'schlange', 'wochen', 'tage', 'monatelang', 'innerhalb', 'stunde', 'sofort', 'gleich'],
    cleanliness: ['sauber*', 'sauberkeit', 'schmutzig*', 'dreckig*', 'dreck', 'hygiene', 'hygienisch*', 'geruch', 'gestunken', 'staub*', 'gepflegt*', 'dreck*', 'fleckig', 'reinigung', 'roch', 'rauch', 'blitzsauber', 'putz*'],
    quality: ['qualitat', 'essen', 'gericht*', 'speise*', 'ergebnis*', 'arbeit', 'reparatur*', 'haarschnitt', 'schnitt', 'farbe', 'behandlung*', 'zimmer', 'bett*', 'produkt*', 'geschmack', 'lecker*', 'kaffee', 'gerate', 'ausstattung', 'gearbeitet', 'haare', 'bob', 'medikament*', 'fruhstuck', 'fleisch', 'pommes', 'zah', 'matschig', 'motor*', 'problem'],
    communication: ['kommunikation', 'erklar*', 'anruf*', 'telefon*', 'email*', 'mail*', 'antwort*', 'geantwortet', 'informiert', 'information*', 'zugehort', 'erreichbar', 'ruckruf*', 'beratung', 'beraten', 'absage', 'nachfrage', 'beschwerde', 'gemeldet', 'nichts gehort', 'e mails', 'erklart*', 'reagiert'],
  },
};

const pt: LanguageLexicon = {
  phrases: {
    'recomendo': 0.8, 'recomendo muito': 1, 'super recomendo': 1, 'recomendad*': 0.7, 'nao recomendo': -1, 'nunca mais': -1, 'nao volto': -1,
    'voltarei': 0.7, 'vou voltar': 0.7, 'voltaremos': 0.7, 'pessim*': -1, 'horrivel': -1, 'horriveis': -1, 'terrivel': -1, 'pior': -0.8,
    'ruim': -0.8, 'ruins': -0.8, 'mau': -0.6, 'ma': -0.4, 'pessimo': -1, 'pessima': -1, 'pessimos': -1, 'decepcion*': -0.9, 'desrespeito*': -0.9,
    'grosseir*': -0.9, 'mal educad*': -0.9, 'mal atendid*': -0.9, 'golpe': -0.9, 'roubo': -1, 'sujo*': -0.8, 'suja*': -0.8, 'sujeira': -0.8,
    'limp*': 0.5, 'caro': -0.5, 'cara': -0.4, 'caros': -0.5, 'carissim*': -0.8, 'barato': 0.4, 'preco justo': 0.6, 'bom preco': 0.7,
    'otim*': 1, 'excelente*': 1, 'maravilhos*': 1, 'incrivel': 0.8, 'perfeit*': 0.9, 'sensacional': 1, 'nota 10': 1, 'nota dez': 1,
    'top': 0.8, 'show': 0.7, 'adorei': 0.9, 'amei': 0.9, 'gostei': 0.7, 'nao gostei': -0.8, 'simpatic*': 0.7, 'atencios*': 0.7, 'educad*': 0.6,
    'prestativ*': 0.7, 'gentil*': 0.7, 'profissional*': 0.6, 'competent*': 0.6, 'bom': 0.5, 'boa': 0.5, 'bons': 0.5, 'boas': 0.4,
    'muito bom': 0.8, 'muito boa': 0.8, 'obrigad*': 0.5, 'satisfeit*': 0.7, 'insatisfeit*': -0.8, 'razoavel': 0, 'mais ou menos': -0.2,
    'demora*': -0.6, 'demorou': -0.6, 'lent*': -0.6, 'rapid*': 0.5, 'pontual*': 0.5, 'esperei muito': -0.8, 'ninguem atende': -0.8,
    'nao atendem': -0.8, 'nao respond*': -0.8, 'sem resposta': -0.8, 'vale a pena': 0.7, 'nao vale a pena': -0.8, 'delicios*': 0.9, 'gostos*': 0.8,
  },
  negators: ['nao', 'nunca', 'jamais', 'nada', 'nem', 'sem', 'nenhum', 'nenhuma', 'ninguem'],
  contrasts: ['mas', 'porem', 'contudo', 'entretanto', 'embora', 'apesar', 'exceto', 'infelizmente', 'so que'],
  aspects: {
    staff: ['equipe*', 'funcionari*', 'atendente*', 'recepcao', 'recepcionista*', 'garcom', 'garcons', 'garconete*', 'medic*', 'doutor*', 'doutora*', 'dentista*', 'veterinari*', 'enfermeir*', 'mecanico*', 'cabeleireir*', 'personal', 'professor*', 'advogad*', 'farmaceutic*', 'encanador*', 'canalizador*', 'dono*', 'dona', 'gerente*', 'pessoal', 'atendimento', 'atendid*', 'servico', 'meninas', 'dra', 'dr', 'profissional', 'carinhos*', 'simpatic*', 'atencios*', 'gerente', 'negaram'],
    price: ['preco*', 'caro*', 'cara*', 'carissim*', 'barat*', 'conta', 'orcamento*', 'valor*', 'cobrar*', 'cobraram', 'dinheiro', 'taxa*', 'custo*', 'custo beneficio', 'reais', 'euros', 'cobrou', 'cobrar', 'orcado', 'honorarios', 'mensalidade', 'justo'],
    wait_time: ['espera*', 'esperar', 'esperei', 'esperamos', 'fila*', 'atras*', 'demora*', 'demorou', 'lent*', 'rapid*', 'pontual*', 'minutos', 'horas', 'mesmo dia', 'semana*', 'dias', 'meses', 'prazo', 'instante', 'demor*', 'horario'],
    cleanliness: ['limp*', 'sujo*', 'suja*', 'sujeira', 'higiene', 'higienic*', 'cheiro*', 'poeira', 'organizad*', 'imundo*', 'limpo*', 'limpa*'],
    quality: ['qualidade', 'comida', 'prato*', 'refeica*', 'resultado*', 'trabalho', 'servico feito', 'conserto*', 'reparo*', 'corte', 'tintura', 'tratamento*', 'quarto*', 'cama*', 'produto*', 'sabor*', 'delicios*', 'cafe', 'equipamento*', 'aparelho*', 'restauracao', 'cor', 'cabelo', 'resultado', 'vazamento', 'carro', 'picanha', 'seca', 'servico', 'peca', 'acabamento', 'resolveu', 'clareamento', 'medicamento*'],
    communication: ['comunicacao', 'explic*', 'ligacao', 'ligacoes', 'ligu*', 'ligar', 'telefone*', 'email*', 'whatsapp', 'respond*', 'resposta*', 'inform*', 'ouv*', 'retorno', 'avis*', 'noticias', 'explicou', 'explicar', 'ligam', 'ligou', 'mensag*', 'reclamei', 'disse'],
  },
};

const it: LanguageLexicon = {
  phrases: {
    'consiglio': 0.8, 'consigliat*': 0.8, 'consigliatissim*': 1, 'lo consiglio': 0.9, 'stra consigliato': 1, 'sconsiglio': -1, 'sconsigliat*': -1,
    'non consiglio': -1, 'mai piu': -1, 'da evitare': -1, 'non tornero': -1, 'tornero': 0.7, 'torneremo': 0.7, 'ci torneremo': 0.8, 'truffa*': -1,
    'vergogn*': -1, 'pessim*': -1, 'orribile': -1, 'terribile': -1, 'schifo*': -1, 'disastro*': -1, 'delu*': -0.9, 'scars*': -0.7,
    'cattiv*': -0.7, 'brutt*': -0.6, 'scortes*': -0.9, 'maleducat*': -0.9, 'antipatic*': -0.8, 'sporc*': -0.8, 'pulit*': 0.5, 'pulizia': 0.3,
    'caro': -0.5, 'cara': -0.4, 'cari': -0.5, 'troppo caro': -0.8, 'costoso': -0.5, 'economico': 0.4, 'prezzo onesto': 0.7, 'prezzi onesti': 0.7,
    'prezzo giusto': 0.6, 'ottim*': 1, 'eccellent*': 1, 'fantastic*': 1, 'meraviglios*': 1, 'perfett*': 0.9, 'super': 0.8, 'top': 0.8,
    'bravissim*': 1, 'bravi': 0.8, 'bravo': 0.8, 'brava': 0.8, 'gentilissim*': 1, 'gentil*': 0.7, 'cordial*': 0.7, 'disponibil*': 0.6, 'simpatic*': 0.7,
    'professional*': 0.6, 'competent*': 0.6, 'buon': 0.5, 'buono': 0.5, 'buona': 0.5, 'buoni': 0.5, 'buonissim*': 1, 'molto bene': 0.7, 'bene': 0.4,
    'grazie': 0.5, 'soddisfatt*': 0.7, 'insoddisfatt*': -0.8, 'niente di che': -0.3, 'nella media': -0.1, 'discret*': 0.1, 'normale': 0,
    'lent*': -0.6, 'veloc*': 0.5, 'rapid*': 0.5, 'puntual*': 0.5, 'attesa infinita': -0.9, 'lunga attesa': -0.7, 'non rispond*': -0.8,
    'nessuna risposta': -0.8, 'ne vale la pena': 0.7, 'non ne vale la pena': -0.8, 'deliziosi': 0.9, 'delizios*': 0.9, 'squisit*': 0.9,
  },
  negators: ['non', 'mai', 'niente', 'nulla', 'nessun', 'nessuno', 'nessuna', 'senza', 'ne', 'neanche', 'nemmeno'],
  contrasts: ['ma', 'pero', 'tuttavia', 'purtroppo', 'peccato', 'eccetto', 'tranne', 'invece', 'sebbene', 'anche se'],
  aspects: {
    staff: ['personale', 'staff', 'team', 'dipendent*', 'reception', 'receptionist', 'segretari*', 'camerier*', 'dottor*', 'dottoressa', 'medic*', 'dentist*', 'veterinari*', 'infermier*', 'meccanic*', 'parrucchier*', 'istruttor*', 'avvocat*', 'farmacist*', 'idraulic*', 'titolar*', 'proprietari*', 'gestor*', 'ragazzi', 'ragazze', 'servizio', 'accoglienza', 'cordial*', 'gentil*', 'disponibil*', 'bravi', 'bravo', 'brava', 'scortes*'],
    price: ['prezz*', 'caro', 'cara', 'cari', 'care', 'costos*', 'economic*', 'conto', 'fattura*', 'preventivo*', 'tariff*', 'cost*', 'soldi', 'truffa*', 'qualita prezzo', 'euro', 'preventivo', 'costo', 'pagato', 'pagare', 'rapporto qualita'],
    wait_time: ['attesa', 'attendere', 'aspett*', 'fila', 'coda', 'ritard*', 'lent*', 'veloc*', 'rapid*', 'puntual*', 'minuti', 'ore', 'in giornata', 'oretta', 'giorni', 'settimane', 'mesi', 'appuntamento', 'previsto', 'subito'],
    cleanliness: ['pulit*', 'pulizia', 'sporc*', 'sporcizia', 'igien*', 'odore', 'puzza', 'polvere', 'ordinat*', 'macchi*'],
    quality: ['qualita', 'cibo', 'piatt*', 'pasto', 'cucina', 'risultat*', 'lavoro', 'riparazion*', 'taglio', 'colore', 'trattament*', 'camera', 'camere', 'letto', 'prodott*', 'sapore', 'gusto', 'delizios*', 'caffe', 'pizza', 'attrezzatur*', 'macchinari', 'tagliando', 'gomme', 'igiene dentale', 'impianto', 'datate', 'fatto bene', 'cura', 'precis*', 'risultato', 'piega'],
    communication: ['comunicazion*', 'spieg*', 'chiamat*', 'telefon*', 'email', 'mail', 'rispost*', 'rispond*', 'inform*', 'ascolt*', 'richiam*', 'avvisat*', 'telefono', 'chiariment*', 'spiegat*', 'avvis*', 'aggiorn*', 'risposto', 'rispondono'],
  },
};

export const LEXICONS: Record<Language, LanguageLexicon> = { en, es, fr, de, pt, it };

/** Emoji and emoticons that carry a tone in every language. */
export const EMOJI: Record<string, number> = {
  '😍': 1, '🥰': 1, '❤️': 0.9, '❤': 0.9, '💕': 0.8, '👍': 0.7, '👌': 0.7, '🙏': 0.5, '😊': 0.7, '🙂': 0.4, '😃': 0.7, '😀': 0.6, '🤩': 1,
  '⭐': 0.5, '🌟': 0.6, '💯': 0.8, '👏': 0.7, '😁': 0.6, ':)': 0.4, ':-)': 0.4, ':D': 0.6,
  '😡': -1, '🤬': -1, '😠': -0.9, '👎': -0.8, '😤': -0.7, '😞': -0.6, '😢': -0.5, '😒': -0.6, '🙄': -0.5, '🤮': -1, '💩': -0.9, ':(': -0.5, ':-(': -0.5,
};
