// Outgoing mail through the SMTP server of SMTP_URL, with nodemailer (the widely used Node mailer:
// SMTP, STARTTLS, authentication and message encoding done right). One transport per process.
import nodemailer, { type Transporter } from 'nodemailer';

export interface Message {
  to: string;
  subject: string;
  /** The plain-text part (the whole message when there is no `html`). */
  text: string;
  /** An HTML part beside the text one (multipart/alternative). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: Message): Promise<void>;
}

/** A mailer for SMTP_URL, or undefined when it is unset (the app then only shows links). */
export function createMailer(config: { smtpUrl?: string; from: string }): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  let transport: Transporter | undefined;
  return {
    async send(message) {
      transport ??= nodemailer.createTransport(config.smtpUrl, { from: config.from });
      await transport.sendMail({ from: config.from, ...message });
    },
  };
}
