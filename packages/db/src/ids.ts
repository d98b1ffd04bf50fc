import { randomBytes } from 'node:crypto';

// ObjectId-style identifiers: 4 bytes of seconds since the epoch, 5 random bytes
// fixed per process, 3 bytes of an incrementing counter, as 24 lower-case hex
// characters. They sort roughly by creation time, like the vendor's ids.
const processRandom = randomBytes(5);
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(now: number = Date.now()): string {
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  processRandom.copy(buf, 4);
  counter = (counter + 1) % 0xffffff;
  buf.writeUIntBE(counter, 9, 3);
  return buf.toString('hex');
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}
