// A read's {name:Type} placeholders written into its text as typed literals, for chDB only.
//
// Why: chDB runs queries side by side on separate connections to its one engine, except those with
// bound parameters. Its Node binding sends every one of those through a single process-wide line,
// because the engine's parameter state is not kept apart per connection (chdb/index.js, "Parameterized
// queries set+reset parameter state"). A read with its values written in runs on its own connection
// at once: a quiet tenant's query no longer waits for a heavy one already running.
//
// Each placeholder becomes `_CAST(literal, 'Type')`, the form ClickHouse itself gives a substituted
// parameter, so the query means exactly what the bound one meant. Literals are built from the
// value's JavaScript type alone (strings quoted with every backslash, quote and NUL escaped; finite
// numbers; bigints; arrays of those; null): nothing else is accepted, so no value can end the literal
// early. A real ClickHouse server keeps server-side binding (its HTTP interface has no such line).

/** `{name:Type}` as ClickHouse writes a query parameter: an identifier, a colon, a type. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;

/** A ClickHouse string literal holding `s` exactly. */
export function stringLiteral(s: string): string {
  return `'${s.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`;
}

function literal(value: unknown, name: string): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`query parameter ${name} is not a finite number`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, name)).join(', ')}]`;
  throw new TypeError(`query parameter ${name} has a value of type ${typeof value}, which is not written inline`);
}

/** The placeholders of a query: each one's name and type, in order (a name may repeat). */
export function placeholders(sql: string): { name: string; type: string }[] {
  return [...sql.matchAll(PLACEHOLDER)].map(([, name, type]) => ({ name, type: type.trim() }));
}

/**
 * `sql` with each placeholder whose name `params` holds replaced by its value as a literal of the
 * placeholder's type, or by the expression `written` gives for its name (a long list the caller
 * hands over another way). A placeholder without a value is left as it is (the engine then names it).
 */
export function inlineParams(
  sql: string,
  params: Readonly<Record<string, unknown>> | undefined,
  written?: ReadonlyMap<string, string>,
): string {
  if (!params) return sql;
  return sql.replace(PLACEHOLDER, (whole, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    return written?.get(name) ?? `_CAST(${literal(params[name], name)}, ${stringLiteral(type.trim())})`;
  });
}
