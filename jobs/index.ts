// Every scheduled job. Later areas (tracking, content, webhooks) add theirs here.
import type { Job } from './registry.ts';

export const jobs: Job[] = [];

export function findJob(name: string, list: Job[] = jobs): Job | undefined {
  return list.find((j) => j.name === name);
}
