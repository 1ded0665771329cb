// The MCP tools: every operation with a `tool` name, described for a model. Built once, when the
// module loads, from the operation registry; a request only looks them up.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../operations/registry.ts';
import { operations } from '../operations/index.ts';
import { inputSchema, outputSchema } from './schemas.ts';

export interface McpTool {
  name: string;
  op: Operation;
  definition: Tool;
}

const WRITE_NOTE =
  'It changes data: call it only when the user explicitly asks for this action, never on your own initiative.';
const BRAND_NOTE = 'Call list_brands first to get the brand_id.';

/** `get_visibility_summary` -> `Get visibility summary`. */
const title = (tool: string) => tool.charAt(0).toUpperCase() + tool.slice(1).replaceAll('_', ' ');

/**
 * The operation's description plus what a model must know to use the tool well: where brand_id
 * comes from, and for writes that they run only at the user's request. Guidance the operation
 * declares its description already gives (`says`) is not repeated: that description is also the
 * REST documentation.
 */
export function toolDescription(op: Operation, input: Tool['inputSchema']): string {
  const says = new Set(op.says ?? []);
  const parts = [op.description.trim()];
  if (input.properties && 'brand_id' in input.properties && !says.has('list-brands')) parts.push(BRAND_NOTE);
  if (op.write && !says.has('explicit-request')) parts.push(WRITE_NOTE);
  return parts.join(' ');
}

/** All four hints, explicitly: clients assume the worst (destructive, open world) for a missing one. */
export function toolAnnotations(op: Operation, name: string): NonNullable<Tool['annotations']> {
  const write = op.write === true;
  return {
    title: title(name),
    readOnlyHint: !write,
    destructiveHint: write && op.destructive === true,
    idempotentHint: write ? op.idempotent === true : true,
    openWorldHint: op.openWorld === true,
  };
}

export function buildTools(ops: readonly Operation[]): McpTool[] {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  for (const op of ops) {
    if (!op.tool) continue;
    if (seen.has(op.tool)) throw new Error(`MCP tool ${op.tool} is declared twice`);
    seen.add(op.tool);
    const input = inputSchema(op);
    tools.push({
      name: op.tool,
      op,
      definition: {
        name: op.tool,
        title: title(op.tool),
        description: toolDescription(op, input),
        inputSchema: input,
        outputSchema: outputSchema(op),
        annotations: toolAnnotations(op, op.tool),
      },
    });
  }
  return tools;
}

export const tools: readonly McpTool[] = buildTools(operations);
export const toolsByName: ReadonlyMap<string, McpTool> = new Map(tools.map((t) => [t.name, t]));
