import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 request written by hand, so a test can send its head and body slowly (or never finish them). */
export interface RawExchange {
  write(data: string | Buffer): void;
  /** What the server sent, once it closed the connection. */
  answer: Promise<RawAnswer>;
  /** Whether the server has closed the connection yet. */
  readonly closed: boolean;
  destroy(): void;
}

/** Connects to `baseUrl` and writes `start` (a request line and headers, perhaps part of a body). */
export async function rawExchange(baseUrl: string, start: string): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = new Promise<RawAnswer>((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => {
      closed = true;
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
    });
  });
  socket.write(start);
  return {
    write: (data) => void socket.write(data),
    answer,
    get closed() {
      return closed;
    },
    destroy: () => socket.destroy(),
  };
}

function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  }));
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}
