// A filter of a page's own (one the shared filter bar does not hold, e.g. an opportunity's status
// or a shopping card's platform): a labelled select that writes one parameter of the address under
// the API's name, looking like the filter bar's controls. The empty choice removes the parameter.
import { navigate, useLocation } from '../router.ts';

export function QuerySelect(p: {
  name: string;
  label: string;
  all: string;
  options: { value: string; label: string }[];
  /** Parameters that name something in the old list (an open item, a cursor) and go with a change. */
  clears?: string[];
  /** The select's id when `filter-<name>` is not it. */
  id?: string;
}) {
  const { path, query } = useLocation();
  const value = query.get(p.name) ?? '';
  const options =
    value && !p.options.some((o) => o.value === value) ? [...p.options, { value, label: value }] : p.options;
  const change = (v: string) => {
    const next = new URLSearchParams(query);
    if (v) next.set(p.name, v);
    else next.delete(p.name);
    for (const k of p.clears ?? []) next.delete(k);
    const qs = next.toString();
    navigate(`${path}${qs ? `?${qs}` : ''}`);
  };
  const id = p.id ?? `filter-${p.name}`;
  return (
    <div class="filter">
      <label for={id}>{p.label}</label>
      <select id={id} value={value} onChange={(e) => change(e.currentTarget.value)}>
        <option value="">{p.all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
