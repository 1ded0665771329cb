// The list of every API operation. Surfaces (REST, Metrics API, MCP, OpenAPI) are built from it.
import type { Operation } from './registry.ts';
import { brands, whoami } from './identity.ts';
import { promptPerformance, prompts, topics } from './prompts.ts';
import { citations, competitorComparison, visibilitySummary, visibilityTrend } from './visibility.ts';
import { productVisibility, shoppingCards } from './shopping.ts';
import { aiTraffic } from './traffic.ts';
import { aiCrawlers } from './crawlers.ts';
import { auditOperations } from './audits.ts';
import { webhookOperations } from './webhooks.ts';
import { contentOperations } from './content.ts';
import { suggestionOperations } from './suggestions.ts';
import { alertOperations } from './alerts.ts';
import { answerOperations } from './answers.ts';
import { visibilityConfidence } from './confidence.ts';
import { searchQueries } from './search-queries.ts';
import { sentiment } from './sentiment.ts';
import { workspaceOperations } from './workspace.ts';
import { visibilityChange } from './visibility-change.ts';
import { citationGap } from './citation-gap.ts';
import { entityTrend } from './entity-trend.ts';
import { untrackedBrands } from './untracked-brands.ts';
import { usage } from './usage.ts';
import { brandProposal } from './brand-proposal.ts';
import { captureNow, captureProgress } from './capture-now.ts';
import { captureEstimate } from './capture-estimate.ts';
import { platforms } from './platforms.ts';
import { setupSuggestions } from './setup-suggestions.ts';
import { checklist, dismissChecklistOperation } from './checklist.ts';
import { importAgreementOperation } from './import-agreement.ts';
import { importSourcesOperation } from './import-sources.ts';

/**
 * The declarations, each with its own types (its name and method literal): the app's pages type
 * their calls and the answers they read from it (src/web/operation-types.ts).
 */
export const declarations = [
  whoami,
  brands,
  visibilitySummary,
  visibilityTrend,
  entityTrend,
  competitorComparison,
  citations,
  visibilityConfidence,
  visibilityChange,
  citationGap,
  untrackedBrands,
  importAgreementOperation,
  importSourcesOperation,
  searchQueries,
  sentiment,
  topics,
  prompts,
  promptPerformance,
  aiTraffic,
  aiCrawlers,
  shoppingCards,
  productVisibility,
  ...auditOperations,
  ...webhookOperations,
  ...suggestionOperations,
  ...contentOperations,
  ...alertOperations,
  ...answerOperations,
  ...workspaceOperations,
  brandProposal,
  captureNow,
  captureProgress,
  captureEstimate,
  platforms,
  setupSuggestions,
  checklist,
  dismissChecklistOperation,
  usage,
];

export const operations: Operation[] = declarations;
