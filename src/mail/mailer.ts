import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { badGateway } from '../errors.ts';

export interface OutgoingMessage {
  to: string;
  /** The address, and the display name shown in the recipient's inbox. */
  from: { address: string; name: string };
  subject: string;
  text: string;
  html: string;
  /** The SMTP envelope sender (where bounces go), when it differs from the From address. */
  envelopeFrom?: string;
}

const withEnvelope = ({ envelopeFrom, ...message }: OutgoingMessage) =>
  envelopeFrom ? { ...message, envelope: { from: envelopeFrom, to: message.to } } : message;

export interface SentMessage {
  messageId: string;
  /** Where an outbox message was written; undefined for SMTP. */
  file?: string;
}

export interface Mailer {
  /** `smtp`: a real mail server; `outbox`: .eml files on local disk (no delivery). */
  readonly kind: 'smtp' | 'outbox';
  /** Sends or fails with a 502 that says why in words a caller can act on. */
  send(message: OutgoingMessage): Promise<SentMessage>;
  close(): void;
}

// Bounded so that a dead mail server fails the request in seconds, not minutes;
// the overall limit stays under the invitation transaction's own (60 s).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
const SEND_DEADLINE_MS = 30_000;

function deadline(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => {
    setTimeout(() => reject(Object.assign(new Error('send deadline passed'), { code: 'ETIMEDOUT' })), ms).unref();
  });
}

/** nodemailer's error codes, in the caller's terms; the server's reply code when there is one. */
function deliveryProblem(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  const reply = responseCode ? ` (SMTP ${responseCode})` : '';
  switch (code) {
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
      return 'the mail server could not be reached';
    case 'EAUTH':
    case 'ENOAUTH':
      return `the mail server refused the login${reply}`;
    case 'EENVELOPE':
      return `the mail server refused the sender or recipient address${reply}`;
    default:
      return `the mail server refused the message${reply}`;
  }
}

function smtpMailer(url: string, logger: Logger): Mailer {
  const transport: Transporter = nodemailer.createTransport(url, SMTP_TIMEOUTS);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await Promise.race([transport.sendMail(withEnvelope(message)), deadline(SEND_DEADLINE_MS)]);
        return { messageId: info.messageId };
      } catch (error) {
        logger.warn({ err: error, to: message.to }, 'email delivery failed');
        throw badGateway(`Could not send the email: ${deliveryProblem(error)}`);
      }
    },
    close: () => transport.close(),
  };
}

/** No mail server configured: each message becomes an .eml file, so `npm start` works offline. */
function outboxMailer(directory: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(withEnvelope(message));
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      // <uuid@host> → uuid: a file name without brackets or @.
      const file = join(directory, `${stamp}-${info.messageId.replace(/^<|@.*$/g, '').replace(/[^\w.-]/g, '')}.eml`);
      try {
        await mkdir(directory, { recursive: true });
        await writeFile(file, info.message as Buffer);
      } catch (error) {
        logger.error({ err: error, file }, 'could not write to the mail outbox');
        throw badGateway('Could not send the email: the local mail outbox is not writable');
      }
      logger.info({ to: message.to, subject: message.subject, file }, 'email written to the local outbox (SMTP_URL is not set)');
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

export function createMailer(options: { smtpUrl?: string; outboxDir: string; logger: Logger }): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.logger) : outboxMailer(options.outboxDir, options.logger);
}
