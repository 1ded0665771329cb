// The simulated engine behind the Engine interface (TRACKING_ENGINE=simulated): demos and load tests
// without provider keys. Its answers are made up, so every capture run it serves records the
// engine as `simulated` (SIMULATED_LABEL), and nothing else ever chooses it.
import { simulateAnswer, SIMULATED_LABEL, type SimBrand } from '../simulated/answers.ts';
import { captured, failure, type Engine } from './types.ts';

/** The seed of the daily job's simulated answers: the same slot always gets the same answer. */
const TRACKING_SEED = 'track-prompts';

/** `brandOf` finds the brand (entities and prompts, from loadSimBrands) a prompt belongs to. */
export function createSimulatedEngine(brandOf: (promptId: string) => SimBrand | undefined): Engine {
  return {
    name: SIMULATED_LABEL,
    version: `${SIMULATED_LABEL}/1`,
    configured: true,
    async capture(req) {
      const brand = brandOf(req.slot.promptId);
      const prompt = brand?.prompts.find((p) => p.id === req.slot.promptId);
      if (!brand || !prompt) return failure('malformed', `simulated engine: prompt ${req.slot.promptId} is not loaded`);
      const a = simulateAnswer({
        seed: TRACKING_SEED,
        brand,
        prompt: { ...prompt, text: req.prompt },
        platform: req.platform,
        region: req.region,
        day: req.slot.day,
        sample: req.slot.sample,
        // Asked for shopping, it shops; asked for a standard answer it keeps its usual mix.
        ...(req.mode === 'shopping' ? { shoppingShare: 1 } : {}),
      });
      return captured({
        text: a.text,
        citations: a.citations,
        model: a.model,
        mode: a.mode,
        products: a.products,
        // Made-up answers run no searches worth reporting: unknown, as for a platform that says nothing.
        searchQueries: null,
        collectedAt: a.collected_at,
      });
    },
  };
}
