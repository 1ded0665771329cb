// What a brand tracks, as the workspace declares it and tracking reads it: the platforms a prompt
// may run on, and the brand's entities (itself and its competitors). Here rather than in tracking,
// which imports tenancy, so that tenancy imports nothing of tracking (no cycle between modules).

export const PLATFORMS = [
  'chatgpt',
  'perplexity',
  'gemini',
  'google_ai_overviews',
  'google_ai_mode',
  'claude',
  'copilot',
  'grok',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * The names people know the platforms by: the one mapping every surface a person reads (the app,
 * the email reports) writes a platform with; the slug stays the API's, a model id goes beside it.
 */
export const PLATFORM_NAMES: Record<Platform, string> = {
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  google_ai_overviews: 'Google AI Overviews',
  google_ai_mode: 'Google AI Mode',
  claude: 'Claude',
  copilot: 'Copilot',
  grok: 'Grok',
};

/** A platform's name; a slug outside the list (an AI traffic source, say) as it is. */
export const platformName = (slug: string): string => PLATFORM_NAMES[slug as Platform] ?? slug;

/** A tracked entity of a brand: the brand itself or one of its competitors. */
export interface Entity {
  id: string;
  kind: 'brand' | 'competitor';
  name: string;
  aliases: string[];
  domains: string[];
}
