// The workspace on every surface (docs/workspace.md): what `apply` does, one object at a
// time, for REST, MCP and the app. Each file holds one kind of object.
import { brandWriteOperations } from './brand-writes.ts';
import { competitorOperations } from './competitors.ts';
import { topicWriteOperations } from './topic-writes.ts';
import { promptWriteOperations } from './prompt-writes.ts';

export const workspaceOperations = [
  ...brandWriteOperations,
  ...competitorOperations,
  ...topicWriteOperations,
  ...promptWriteOperations,
];
