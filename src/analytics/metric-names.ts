// The six headline figures by the names people read them under (the overview's cards, the email
// reports) and a change's verdict in words: one list, pure, which the browser bundle may import.

export const METRIC_NAMES = {
  ai_visibility_score: 'AI visibility score',
  mention_rate: 'Mention rate',
  citation_rate: 'Citation rate',
  share_of_voice: 'Share of voice',
  average_position: 'Average position',
  net_sentiment: 'Net sentiment',
} as const;

/** How each figure is written after its value: a score out of 100, a percentage, or nothing. */
export const METRIC_UNITS: Record<keyof typeof METRIC_NAMES, string> = {
  ai_visibility_score: ' / 100',
  mention_rate: '%',
  citation_rate: '%',
  share_of_voice: '%',
  average_position: '',
  net_sentiment: '',
};

export const VERDICT_WORDS = {
  up: 'up',
  down: 'down',
  within_noise: 'within noise',
  not_enough_data: 'not enough data',
} as const;
