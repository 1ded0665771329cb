// The list of every API operation. Surfaces (REST, Metrics API, MCP, OpenAPI) are built from it.
import type { Operation } from './registry.ts';
import { brands, whoami } from './identity.ts';
import { prompts, topics } from './prompts.ts';

export const operations: Operation<any, any>[] = [whoami, brands, topics, prompts];
