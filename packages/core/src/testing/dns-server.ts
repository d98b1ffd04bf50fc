// A loopback DNS server answering from a table, so DNS checks run through node:dns's
// real resolver path (UDP, TCP fallback, rcodes, timeouts) instead of a mock.
import { Socket } from 'node:net';
import { createServer, Packet, type DnsHandler } from 'dns2';

export interface DnsTestRecords {
  /**
   * One entry per TXT record. A string is sent as one record, split into 255-octet
   * character-strings when longer (as zone files do for DKIM keys); an array gives
   * the character-strings of one record explicitly.
   */
  txt?: (string | string[])[];
  mx?: { exchange: string; priority: number }[];
  /** Answer SERVFAIL (rcode 2) to every query for the name. */
  servfail?: boolean;
  /** Never answer, so the client's timeout is what ends the lookup. */
  timeout?: boolean;
  /** Answer after this many ms (to observe how many queries a client keeps in flight). */
  delayMs?: number;
}

export interface DnsQuery {
  name: string;
  type: 'TXT' | 'MX' | number;
  /** `tcp` when the client retried over TCP after a truncated UDP answer. */
  transport: 'udp' | 'tcp';
}

export interface DnsTestServer {
  /** `127.0.0.1:<port>`, for `createDnsResolver({ servers: [address] })` or `DNS_SERVERS`. */
  address: string;
  /** Every question received, in order, with the name lower-cased. */
  queries: DnsQuery[];
  /** Most queries received and not yet answered at any one time (unanswered `timeout` ones excluded). */
  readonly peakInFlight: number;
  /** Requests the server could not parse or answer; a test expects none. */
  errors: Error[];
  close(): Promise<void>;
}

// Packet.RCODE exists at runtime but is missing from dns2's typings.
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, FORMERR: 1 } as const;
const MAX_CHARACTER_STRING = 255;

/** RFC 1035 §3.3: a character-string carries at most 255 octets. */
export function splitCharacterStrings(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_CHARACTER_STRING) return [text];
  const chunks: string[] = [];
  for (let start = 0; start < bytes.length; start += MAX_CHARACTER_STRING) {
    chunks.push(bytes.subarray(start, start + MAX_CHARACTER_STRING).toString('utf8'));
  }
  return chunks;
}

type Send = Parameters<DnsHandler>[1];

/** dns2's typings say send() returns a Promise; its TCP server returns nothing. */
function reply(send: Send, response: Packet): void {
  try {
    void Promise.resolve(send(response)).catch(() => undefined);
  } catch {
    // The client went away; nothing to answer.
  }
}

function typeName(type: number): DnsQuery['type'] {
  if (type === Packet.TYPE.TXT) return 'TXT';
  if (type === Packet.TYPE.MX) return 'MX';
  return type;
}

/**
 * Serves `records` (keys are lower-case names without a trailing dot) on 127.0.0.1,
 * UDP and TCP on the same port, since resolvers retry over TCP when a UDP answer is
 * truncated. A name missing from the table answers NXDOMAIN; a known name without
 * the asked type answers NOERROR with no answers (node: ENODATA).
 */
export async function startDnsServer(options: { records: Record<string, DnsTestRecords> }): Promise<DnsTestServer> {
  const table = new Map(Object.entries(options.records).map(([name, value]) => [name.toLowerCase().replace(/\.$/, ''), value]));
  const queries: DnsQuery[] = [];
  const errors: Error[] = [];
  // Open TCP connections: a resolver may keep one idle, and close() must not wait for it.
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let peakInFlight = 0;

  const handle: DnsHandler = (request, send, client) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) {
      response.header.rcode = RCODE.FORMERR;
      reply(send, response);
      return;
    }
    const name = question.name.toLowerCase().replace(/\.$/, '');
    if (client instanceof Socket) sockets.add(client.once('close', () => sockets.delete(client)));
    queries.push({ name, type: typeName(question.type), transport: client instanceof Socket ? 'tcp' : 'udp' });
    const entry = table.get(name);
    if (entry?.timeout) return;
    if (!entry) {
      response.header.rcode = RCODE.NXDOMAIN;
    } else if (entry.servfail) {
      response.header.rcode = RCODE.SERVFAIL;
    } else if (question.type === Packet.TYPE.TXT) {
      // TTL 0 keeps resolvers from caching, so `queries` shows every lookup made.
      for (const txt of entry.txt ?? []) {
        const data = Array.isArray(txt) ? txt : splitCharacterStrings(txt);
        response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data } as Packet['answers'][number]);
      }
    } else if (question.type === Packet.TYPE.MX) {
      for (const mx of entry.mx ?? []) {
        response.answers.push({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 0, ...mx } as Packet['answers'][number]);
      }
    }
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    const answer = () => {
      inFlight -= 1;
      reply(send, response);
    };
    if (entry?.delayMs) setTimeout(answer, entry.delayMs);
    else answer();
  };

  // Port 0 picks a free UDP port; the TCP side must then bind the same number, which
  // another process may hold, so a clash retries with a fresh pair.
  for (let attempt = 0; ; attempt++) {
    const udp = createServer({ udp: true, handle });
    const tcp = createServer({ tcp: true, handle });
    for (const server of [udp, tcp]) server.on('requestError', (error) => errors.push(error));
    const { udp: udpAddress } = await udp.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const port = udpAddress?.port;
    if (!port) throw new Error('dns test server: UDP socket has no port');
    const tcpError = await new Promise<Error | null>((resolve) => {
      tcp.once('error', (error) => resolve(error));
      tcp.listen({ tcp: { port, address: '127.0.0.1' } }).then(() => resolve(null), resolve);
    });
    if (tcpError) {
      await udp.close();
      if (attempt >= 5) throw tcpError;
      continue;
    }
    // Without a listener, a socket error would crash the test process.
    for (const server of [udp, tcp]) server.on('error', (error) => errors.push(error));
    return {
      address: `127.0.0.1:${port}`,
      queries,
      errors,
      get peakInFlight() {
        return peakInFlight;
      },
      close: async () => {
        const closed = Promise.all([udp.close(), tcp.close()]);
        for (const socket of sockets) socket.destroy();
        await closed;
      },
    };
  }
}
