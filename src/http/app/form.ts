// A server-rendered form's fields: an unreadable body is a 400, like any bad input.
import type Koa from 'koa';
import { ApiError } from '../../errors.ts';
import { readForm } from '../oauth/form.ts';

export async function readFields(ctx: Koa.Context): Promise<Map<string, string>> {
  try {
    return await readForm(ctx);
  } catch (err) {
    throw new ApiError(400, (err as Error).message);
  }
}
