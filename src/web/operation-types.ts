// The app's link to the API's operations, in types only: each operation's name, what its params
// take and what it answers as the browser receives it, all read from the declarations' zod schemas,
// so a page naming an operation, a parameter or a field the schema does not have fails the type
// check. The imports are `import type`: esbuild drops them, so no server code enters the bundle.
import type { z } from 'zod';
import type { declarations } from '../operations/index.ts';

type Declared = (typeof declarations)[number];
type Declaration<N extends OperationName> = Extract<Declared, { name: N }>;

export type OperationName = Declared['name'];
/** The operations the app runs with GET (`read`): a GET declaration's, as /app/api/op/NAME requires. */
export type ReadName = Extract<Declared, { method: 'GET' }>['name'];
/** The operations that change something (`change`, a POST whatever the REST verb). */
export type ChangeName = Exclude<OperationName, ReadName>;

/** What the operation's params take: the schema's input side, before its defaults and transforms. */
export type Params<N extends OperationName> = z.input<Declaration<N>['params']>;

/**
 * The operation's answer as it arrives: the JSON of what `run` returns. result-check.ts parses that
 * JSON with the result schema, so it is the schema's input side (z.input), not its output.
 */
export type Result<N extends OperationName> = z.input<Declaration<N>['result']>;

/**
 * A change's input as a form may send it: a number may be the text the person typed, which the
 * server refuses with a message naming the field (shown beside it). Names and the rest are checked.
 */
export type AsTyped<T> = T extends number ? number | string : T extends object ? { [K in keyof T]: AsTyped<T[K]> } : T;

/** A read's params as an address gives them: the operation's own names, each a string or left out. */
export type ReadParams<N extends ReadName> = { [K in keyof Params<N>]?: string | undefined };
