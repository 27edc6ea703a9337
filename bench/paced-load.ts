/**
 * An open-loop load generator: requests start at a steady rate, spread evenly over each second, each
 * on a free keep-alive connection (up to `maxConnections`), whether or not the earlier ones have been
 * answered, as visitors arrive. Latency is counted from when a request was due to start, so time spent
 * waiting for a connection counts too (no coordinated omission).
 *
 * autocannon's rate limit is not that: each connection sends its quota for the second back to back and
 * then waits for the next second, so every second begins with a burst of as many requests as there are
 * connections, and it corrects latencies as if each connection were due to send every millisecond.
 */
import http from 'node:http';

export interface TPacedRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TPacedResult {
  /** Requests answered (any status) per second. */
  achieved: number;
  requests: number;
  p50: number;
  p99: number;
  /** Answers that were not what `isExpected` wanted, failed connections and timeouts. */
  errors: number;
  /** Requests that got no answer, by why (the socket error's code, or `timeout`). */
  unanswered: Map<string, number>;
}

export interface TPacedOptions<T> {
  url: string;
  rate: number;
  seconds: number;
  maxConnections: number;
  /** Each request, and what it is (handed back to `onAnswer`). */
  next(): { request: TPacedRequest; tag: T };
  /** Every answer's status (0 for a failed connection or a timeout); returns whether it was the expected one. */
  onAnswer(tag: T, status: number): boolean;
  timeoutMs?: number;
  /**
   * Loopback addresses (127.x.y.z) to open the connections from, each with its share of them: behind an
   * edge that keys visitors by their TCP address, the visitors come from many addresses, as they would.
   */
  localAddresses?: readonly string[];
  /**
   * Prints, to stderr, each second's requests, slowest answer, answers over 100 ms by kind, and how
   * late this process sent a request after it was due (its own event loop held up) (LOAD_TIMELINE=1).
   */
  timeline?: boolean;
}

const TICK_MS = 2;
/**
 * A connection idle this long is closed by the client, before the server's keep-alive timeout
 * (5 s) closes it: otherwise a request sent just as the server closes one is reset (ECONNRESET), which
 * browsers retry on their own and Node's client does not.
 */
const IDLE_SOCKET_MS = 4_000;

export async function runPaced<T>(options: TPacedOptions<T>): Promise<TPacedResult> {
  const target = new URL(options.url);
  const addresses = options.localAddresses ?? [];
  const perAgent = addresses.length === 0 ? options.maxConnections : Math.max(1, Math.floor(options.maxConnections / addresses.length));
  const agents = (addresses.length === 0 ? [undefined] : addresses).map(
    (localAddress) => new http.Agent({ keepAlive: true, maxSockets: perAgent, maxFreeSockets: perAgent, timeout: IDLE_SOCKET_MS, ...(localAddress ? { localAddress } : {}) }),
  );
  const latencies: number[] = [];
  let errors = 0;
  let inFlight = 0;
  const unanswered = new Map<string, number>();
  const noAnswer = (error: Error & { code?: string }) => unanswered.set(error.code ?? error.message, (unanswered.get(error.code ?? error.message) ?? 0) + 1);
  const started = performance.now();
  const endAt = started + options.seconds * 1000;
  let sent = 0;
  const timeline: Array<{ n: number; max: number; slow: number; late: number; slowByTag: Map<string, number> }> = [];

  const slotOf = (due: number) => {
    const second = Math.floor((due - started) / 1000);
    const slot = timeline[second] ?? { n: 0, max: 0, slow: 0, late: 0, slowByTag: new Map<string, number>() };
    timeline[second] = slot;
    return slot;
  };
  const send = (due: number) => {
    const { request, tag } = options.next();
    if (options.timeline) {
      const slot = slotOf(due);
      slot.late = Math.max(slot.late, performance.now() - due);
    }
    const agent = agents[sent % agents.length]!;
    inFlight++;
    const done = (status: number) => {
      inFlight--;
      const ms = performance.now() - due;
      latencies.push(ms);
      if (options.timeline) {
        const slot = slotOf(due);
        slot.n++;
        slot.max = Math.max(slot.max, ms);
        if (ms > 100) {
          slot.slow++;
          slot.slowByTag.set(String(tag), (slot.slowByTag.get(String(tag)) ?? 0) + 1);
        }
      }
      if (!options.onAnswer(tag, status)) errors++;
    };
    const req = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.path, headers: request.headers, agent, timeout: options.timeoutMs ?? 10_000 },
      (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode ?? 0));
        res.once('error', (error) => {
          noAnswer(error);
          done(0);
        });
      },
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', (error) => {
      noAnswer(error);
      done(0);
    });
    req.end(request.body);
  };

  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      // Every request due by now, each counted from the moment it was due.
      const due = Math.min(now, endAt);
      const shouldHaveSent = Math.floor(((due - started) / 1000) * options.rate);
      while (sent < shouldHaveSent) {
        const dueAt = started + (sent / options.rate) * 1000;
        sent++;
        send(dueAt);
      }
      if (now >= endAt) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  // The answers still on their way.
  const drainUntil = performance.now() + (options.timeoutMs ?? 10_000) + 1_000;
  while (inFlight > 0 && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 10));
  for (const agent of agents) agent.destroy();
  if (options.timeline) {
    const line = (t: (typeof timeline)[number], i: number) => {
      const kinds = [...t.slowByTag].map(([tag, count]) => `${tag} ${count}`).join(', ');
      return `  ${i} s: ${t.n} requests, slowest ${t.max.toFixed(0)} ms, ${t.slow} over 100 ms${kinds ? ` (${kinds})` : ''}; sent up to ${t.late.toFixed(0)} ms late\n`;
    };
    process.stderr.write(timeline.map(line).join(''));
  }
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { achieved: latencies.length / options.seconds, requests: latencies.length, p50: at(0.5), p99: at(0.99), errors: errors + inFlight, unanswered };
}
