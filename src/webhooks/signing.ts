// Endpoint secrets and Standard Webhooks signatures (https://www.standardwebhooks.com/).
// A secret is `whsec_` + base64 of 32 random bytes. It is shown once, at registration; at rest it
// is sealed with AES-256-GCM when WEBHOOK_SECRET_KEY is set (a database dump then leaks no
// secret), else stored as is. Signing uses the reference `standardwebhooks` library, the same one
// receivers are told to verify with.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SEALED = 'enc:v1:';

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const keyOf = (secretKey: string) => createHash('sha256').update(secretKey).digest();

/** What is stored for `secret`: sealed when a key is configured. */
export function sealSecret(secret: string, secretKey?: string): string {
  if (!secretKey) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED + [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join(':');
}

/** The secret back from what is stored; throws when it is sealed and the key is missing or wrong. */
export function openSecret(stored: string, secretKey?: string): string {
  if (!stored.startsWith(SEALED)) return stored;
  if (!secretKey) throw new Error('The endpoint secret is encrypted and WEBHOOK_SECRET_KEY is not set');
  const [iv, tag, data] = stored
    .slice(SEALED.length)
    .split(':')
    .map((s) => Buffer.from(s, 'base64'));
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey), iv);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('The endpoint secret cannot be decrypted with the configured WEBHOOK_SECRET_KEY');
  }
}

/**
 * The three Standard Webhooks headers for one attempt. `webhook-id` stays the same on every retry
 * of a delivery (receivers dedupe on it); the timestamp is the attempt's, in whole seconds.
 */
export function signedHeaders(secret: string, msgId: string, at: Date, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(msgId, timestamp, body),
  };
}
