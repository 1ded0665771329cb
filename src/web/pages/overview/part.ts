// What each part of the overview receives: the brand, the page's filters as the API's parameters
// (with brand_id), a key that changes when they do, and the explorer's address for a figure.
export interface PartProps {
  brandId: string;
  params: Record<string, string | undefined>;
  paramsKey: string;
  /** The answers explorer at the page's filters plus the figure's own parameters. */
  link: (own?: Record<string, string | undefined>) => string;
}

/** The page's filters without topic_id, for the operations that take no topic. */
export function withoutTopic(params: Record<string, string | undefined>): Record<string, string | undefined> {
  const { topic_id: _topic, ...rest } = params;
  return rest;
}
