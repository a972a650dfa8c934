/**
 * Hand-labelled review texts for the sentiment test. Labels were written from reading each text as a customer
 * would, before running the analyser: positive = the writer is pleased overall, negative = displeased overall,
 * neutral = factual, mixed without a clear lean, or lukewarm. Ratings are what such a review would plausibly carry
 * (they only matter for texts without words).
 */
export interface LabelledReview {
  text: string;
  rating: number;
  label: 'positive' | 'neutral' | 'negative';
}

export const LABELLED_REVIEWS: readonly LabelledReview[] = [
  { text: 'Absolutely wonderful experience. The staff were friendly and the dentist explained everything.', rating: 5, label: 'positive' },
  { text: 'Great service, quick and professional. Highly recommend!', rating: 5, label: 'positive' },
  { text: 'Best pizza in town, the crust is amazing and the owner is so kind.', rating: 5, label: 'positive' },
  { text: 'Dr. Patel is fantastic, very gentle and patient with my kids.', rating: 5, label: 'positive' },
  { text: 'Love this place! Clean rooms, comfortable beds and helpful front desk.', rating: 5, label: 'positive' },
  { text: 'The mechanic fixed my brakes the same day and the price was fair. Thank you!', rating: 5, label: 'positive' },
  { text: 'Excellent coffee and a cozy atmosphere. I come here every morning.', rating: 5, label: 'positive' },
  { text: 'Very happy with the results, my hair looks perfect.', rating: 5, label: 'positive' },
  { text: 'Staff went above and beyond to help us. Impressed.', rating: 5, label: 'positive' },
  { text: 'Good food, good prices, nice people.', rating: 4, label: 'positive' },
  { text: 'Easy booking and a pleasant visit overall.', rating: 4, label: 'positive' },
  { text: 'Not bad at all, I would definitely come back.', rating: 4, label: 'positive' },
  { text: 'Terrible service. We waited two hours and nobody apologised.', rating: 1, label: 'negative' },
  { text: 'The front desk was rude and the bill was wrong. Never again.', rating: 1, label: 'negative' },
  { text: 'Dirty bathroom, cold food and an unfriendly waiter.', rating: 1, label: 'negative' },
  { text: 'Awful experience, they damaged my car and refused to pay for it.', rating: 1, label: 'negative' },
  { text: 'Worst haircut I have ever had. Very disappointed.', rating: 1, label: 'negative' },
  { text: 'The staff were not friendly at all and the room smelled bad.', rating: 2, label: 'negative' },
  { text: 'Overpriced and the pasta was bland. Would not recommend.', rating: 2, label: 'negative' },
  { text: 'They cancelled my appointment twice without notice. Horrible communication.', rating: 1, label: 'negative' },
  { text: 'Long wait, poor parking and the doctor seemed rushed.', rating: 2, label: 'negative' },
  { text: 'I am frustrated: the order was late and missing items.', rating: 2, label: 'negative' },
  { text: 'Stupid policies and a useless manager.', rating: 1, label: 'negative' },
  { text: 'The appointment was on Tuesday at 10am.', rating: 3, label: 'neutral' },
  { text: 'We ordered two sandwiches and a soup.', rating: 3, label: 'neutral' },
  { text: 'The shop is on the corner of Main Street next to the bank.', rating: 3, label: 'neutral' },
  { text: 'Average place. Nothing special.', rating: 3, label: 'neutral' },
  { text: 'I had my teeth cleaned and an x-ray taken.', rating: 4, label: 'neutral' },
  { text: 'Parking is in the back of the building.', rating: 3, label: 'neutral' },
  { text: 'They open at 9 and close at 5 on weekdays.', rating: 3, label: 'neutral' },
  { text: 'Came in for an oil change.', rating: 4, label: 'neutral' },
  { text: 'The menu has changed since last year.', rating: 3, label: 'neutral' },
];
