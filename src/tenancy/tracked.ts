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

/** A tracked entity of a brand: the brand itself or one of its competitors. */
export interface Entity {
  id: string;
  kind: 'brand' | 'competitor';
  name: string;
  aliases: string[];
  domains: string[];
}
