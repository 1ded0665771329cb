// Every figure leads to its answers: the answers explorer's address with the filters that produced
// the figure (the page's filters plus the figure's own: prompt_id, mentioned, platform, mode...).
// Empty values are left out, so the explorer reads exactly what the figure was computed from.

/** The answers explorer of a brand, filtered by `params` (the API's own parameter names). */
export function answersHref(brandId: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
  const qs = query.toString();
  return `/app/brands/${encodeURIComponent(brandId)}/answers${qs ? `?${qs}` : ''}`;
}
