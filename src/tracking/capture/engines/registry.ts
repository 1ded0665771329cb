// Which engine answers which platform. Live: one adapter per provider, built from its key, endpoint
// and model in the configuration; a provider without a key still has an engine, one that answers
// every capture with not_configured, so a missing key is reported per platform and never skipped
// quietly. Simulated: one engine for every platform, chosen only by TRACKING_ENGINE=simulated.
import type { ProviderName, TrackingConfig } from '../../../config.ts';
import type { Platform } from '../../../tenancy/tracked.ts';
import { createAnthropicEngine } from './anthropic.ts';
import { createGeminiEngine } from './gemini.ts';
import { createOpenAIEngine, type AdapterOptions } from './openai.ts';
import { createPerplexityEngine } from './perplexity.ts';
import { createSerpApiEngine } from './serpapi.ts';
import { createSimulatedEngine } from './simulated.ts';
import type { SimBrand } from '../simulated/answers.ts';
import type { Engine } from './types.ts';
import { createXaiEngine } from './xai.ts';

/** The platforms each provider answers, and the variable that holds its key. */
export const PROVIDERS: Record<
  ProviderName,
  { platforms: Platform[]; keyVariable: string; create: (o: AdapterOptions) => Engine }
> = {
  openai: { platforms: ['chatgpt'], keyVariable: 'OPENAI_API_KEY', create: createOpenAIEngine },
  perplexity: { platforms: ['perplexity'], keyVariable: 'PERPLEXITY_API_KEY', create: createPerplexityEngine },
  gemini: { platforms: ['gemini'], keyVariable: 'GEMINI_API_KEY', create: createGeminiEngine },
  anthropic: { platforms: ['claude'], keyVariable: 'ANTHROPIC_API_KEY', create: createAnthropicEngine },
  xai: { platforms: ['grok'], keyVariable: 'XAI_API_KEY', create: createXaiEngine },
  serpapi: {
    platforms: ['google_ai_overviews', 'google_ai_mode', 'copilot'],
    keyVariable: 'SERPAPI_API_KEY',
    create: createSerpApiEngine,
  },
};

export function providerOf(platform: Platform): ProviderName {
  for (const [name, p] of Object.entries(PROVIDERS)) if (p.platforms.includes(platform)) return name as ProviderName;
  throw new Error(`no provider answers the ${platform} platform`);
}

export interface Engines {
  kind: 'live' | 'simulated';
  forPlatform(platform: Platform): Engine;
}

export function liveEngines(tracking: TrackingConfig): Engines {
  const http = { timeoutMs: tracking.timeoutMs, maxAttempts: tracking.maxAttempts, retryBaseMs: tracking.retryBaseMs };
  const engines = new Map<ProviderName, Engine>();
  for (const [name, p] of Object.entries(PROVIDERS) as [ProviderName, (typeof PROVIDERS)[ProviderName]][]) {
    engines.set(name, p.create({ provider: tracking.providers[name], http }));
  }
  return { kind: 'live', forPlatform: (platform) => engines.get(providerOf(platform))! };
}

export function simulatedEngines(brandOf: (promptId: string) => SimBrand | undefined): Engines {
  const engine = createSimulatedEngine(brandOf);
  return { kind: 'simulated', forPlatform: () => engine };
}
