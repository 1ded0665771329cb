// Reads a JSON request body with a size cap. Empty bodies read as {} so `POST` without a body works.
// REST and MCP both read their bodies with it, so it lives below the surfaces.
import type Koa from 'koa';
import { ApiError } from '../errors.ts';

export async function readJsonBody(ctx: Koa.Context, maxBytes = 1_000_000): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ApiError(413, `Request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8').trim();
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
}
