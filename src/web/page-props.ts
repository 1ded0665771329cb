// What the app gives every page: the path's parameters and the address's query. Apart from
// routes.ts, which imports every page, so a page depends on this and not on the list of pages.
export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}
