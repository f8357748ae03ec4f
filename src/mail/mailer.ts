import { mkdir, writeFile } from 'node:fs/promises';
import { isIP, connect as connectPlain, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
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

interface SocketOptions {
  host?: string;
  port?: number;
  secure?: boolean;
  tls?: ConnectionOptions;
}
type SocketCallback = (error: Error | null, socketOptions?: { connection: Socket; secured: boolean }) => void;

/**
 * Opens the connection for nodemailer (its `getSocket` hook) so that the
 * caller holds the socket: at the send deadline it is destroyed, and a
 * message whose end the server never acknowledged is not delivered. Racing
 * a timer instead would leave nodemailer sending after the invitation was
 * rolled back.
 */
function openSocket(options: SocketOptions, opened: (socket: Socket) => void, callback: SocketCallback) {
  const host = options.host ?? 'localhost';
  const port = options.port ?? (options.secure ? 465 : 587);
  const socket = options.secure
    ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }), ...options.tls })
    : connectPlain({ host, port });
  opened(socket);
  const failed = (error: Error) => callback(Object.assign(error, { code: 'ECONNECTION' }));
  socket.once('error', failed);
  socket.once(options.secure ? 'secureConnect' : 'connect', () => {
    socket.removeListener('error', failed);
    callback(null, { connection: socket, secured: Boolean(options.secure) });
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

function smtpMailer(url: string, sendTimeoutMs: number, logger: Logger): Mailer {
  return {
    kind: 'smtp',
    async send(message) {
      let socket: Socket | undefined;
      let timedOut = false;
      // One transport per message: its connection is this message's alone.
      // (createTransport with a URL would drop every other option: the transport takes both.)
      const transport = nodemailer.createTransport(new SMTPTransport({
        url,
        ...SMTP_TIMEOUTS,
        getSocket: (options: SocketOptions, callback: SocketCallback) => openSocket(options, (opened) => (socket = opened), callback),
      } as never));
      const deadline = setTimeout(() => {
        timedOut = true;
        socket?.destroy(Object.assign(new Error('send deadline passed'), { code: 'ETIMEDOUT' }));
      }, sendTimeoutMs);
      try {
        const info = await transport.sendMail(withEnvelope(message));
        return { messageId: info.messageId };
      } catch (error) {
        logger.warn({ err: error, to: message.to }, 'email delivery failed');
        throw badGateway(`Could not send the email: ${timedOut ? 'the mail server did not answer in time' : deliveryProblem(error)}`);
      } finally {
        clearTimeout(deadline);
        transport.close();
      }
    },
    close: () => {},
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

export function createMailer(options: { smtpUrl?: string; sendTimeoutMs?: number; outboxDir: string; logger: Logger }): Mailer {
  return options.smtpUrl
    ? smtpMailer(options.smtpUrl, options.sendTimeoutMs ?? 30_000, options.logger)
    : outboxMailer(options.outboxDir, options.logger);
}
