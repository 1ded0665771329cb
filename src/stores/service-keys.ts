// Secrets the service makes for itself and every instance shares (postgres/075_service_keys.sql):
// the first instance to ask inserts a random key, and every instance, then and after, reads the
// one that won. Nothing to configure, and several instances on one Postgres agree.
import { randomBytes } from 'node:crypto';
import type { Queryable } from './postgres.ts';

export async function serviceKey(db: Queryable, name: string): Promise<Buffer> {
  await db.query('INSERT INTO service_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32),
  ]);
  const { rows } = await db.query<{ key: Buffer }>('SELECT key FROM service_keys WHERE name = $1', [name]);
  return Buffer.from(rows[0].key);
}
