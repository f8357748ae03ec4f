import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The login the client used. */
  user: string | undefined;
  mail: ParsedMail;
}

export interface TestSmtpServer {
  /** smtp://user:pass@127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first message to `to` (waits for it). */
  messageTo(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

const USER = 'mailer';
const PASSWORD = 'test-secret';

/**
 * A real SMTP server on loopback (smtp-server), with a login, that parses what
 * it receives (mailparser). Recipients matching `refuseRecipients` get a 550,
 * as a mail server does for an unknown mailbox; with `stallAfterData` it never
 * answers the end of a message (so never accepts one).
 */
export async function startSmtpServer(options: { refuseRecipients?: RegExp; stallAfterData?: boolean } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipients?.test(address.address)) {
        return callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      // A server that takes the whole message and never says whether it accepted it.
      if (options.stallAfterData) return void stream.resume();
      simpleParser(stream)
        .then((mail) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            user: session.user as string | undefined,
            mail,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    received,
    async messageTo(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((message) => message.envelope.to.includes(to));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
