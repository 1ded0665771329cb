// Every scheduled job. Later areas (tracking, content, webhooks) add theirs here.
import type { Job } from './registry.ts';
import { dailyDigest } from './daily-digest.ts';
import { trackPrompts } from './track-prompts.ts';
import { analyzeVolumes } from './analyze-volumes.ts';
import { generateOpportunities } from './generate-opportunities.ts';
import { suggestTopics } from './suggest-topics.ts';
import { evaluateAlerts } from './evaluate-alerts.ts';
import { sendReportsJob } from './send-reports.ts';

export const jobs: Job[] = [
  dailyDigest,
  trackPrompts,
  analyzeVolumes,
  generateOpportunities,
  suggestTopics,
  evaluateAlerts,
  sendReportsJob,
];

export function findJob(name: string, list: Job[] = jobs): Job | undefined {
  return list.find((j) => j.name === name);
}
