/** A client whose HTTP/1.1 requests the test writes byte by byte on one connection (bodies held back, trickled or cut). */
import net from 'node:net';

export interface TRawAnswer {
  status: number;
  /** The status line and headers, as sent. */
  head: string;
  body: string;
}

export interface TRawClient {
  socket: net.Socket;
  /** Resolves when the connection is closed (by either side). */
  closed: Promise<void>;
  isClosed(): boolean;
  /** Every byte received so far (latin1). */
  received(): string;
  /** The next whole answer (status line, headers and a Content-Length body); rejects if the connection closes first. */
  answer(): Promise<TRawAnswer>;
}

/** Connects to 127.0.0.1:`port` from `localAddress` (any 127.x address is loopback). */
export function connectRaw(port: number, localAddress = '127.0.0.1'): Promise<TRawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let data = '';
    let consumed = 0;
    let isClosed = false;
    const waiters: Array<() => void> = [];
    const wake = () => {
      for (const w of waiters.splice(0)) w();
    };
    socket.on('data', (d) => {
      data += d.toString('latin1');
      wake();
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((r) =>
      socket.once('close', () => {
        isClosed = true;
        wake();
        r();
      }),
    );
    const takeAnswer = (): TRawAnswer | undefined => {
      const rest = data.slice(consumed);
      const end = rest.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const head = rest.slice(0, end);
      const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? 0);
      const body = rest.slice(end + 4);
      if (body.length < length) return undefined;
      consumed += end + 4 + length;
      return { status: Number(head.slice(9, 12)), head, body: Buffer.from(body.slice(0, length), 'latin1').toString('utf8') };
    };
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        isClosed: () => isClosed,
        received: () => data,
        answer: () =>
          new Promise((done, fail) => {
            const check = () => {
              const answer = takeAnswer();
              if (answer) return done(answer);
              if (isClosed) return fail(new Error(`closed before an answer: ${JSON.stringify(data.slice(consumed, consumed + 200))}`));
              waiters.push(check);
            };
            check();
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/** A request's line and headers (Host included), ready to write before its body. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`;
}

/** The bytes and Content-Type of a multipart form, as a browser would send them. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; type: string }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type') ?? '' };
}
