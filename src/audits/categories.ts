// The audit's five categories, their weights and their names: all the app (src/web) needs of the
// rubric, apart from its text (rubric.ts), so the browser's bundle carries the names and not the
// rubric's advice. test/architecture/layers.test.ts lets the app import this file and not that one.

export const CATEGORIES = ['technical', 'structure', 'content', 'authority', 'eeat'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Category weights (sum 1). Technical access gates everything else; content is what gets quoted. */
export const CATEGORY_WEIGHTS: Record<Category, number> = {
  technical: 0.25,
  structure: 0.2,
  content: 0.25,
  authority: 0.15,
  eeat: 0.15,
};

export const CATEGORY_LABELS: Record<Category, string> = {
  technical: 'Trust and technical access',
  structure: 'Structure and markup',
  content: 'Content',
  authority: 'Authority',
  eeat: 'E-E-A-T (experience, expertise, authoritativeness, trust)',
};
