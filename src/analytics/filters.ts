// The filters of a figure request: one brand (required), a time range, models, a region and a
// topic's prompts. src/stores/scoped-query.ts turns them into the brand-scoped WHERE of every fact
// read: it is the only maker of the queries ch.rows accepts, so an unscoped query cannot be written.
export type { Filters } from '../stores/scoped-query.ts';
