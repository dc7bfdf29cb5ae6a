import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of 36 under 256: bytes from it up are skipped, so every character is equally likely. */
const UNBIASED = 252;

/**
 * A new documentId in the shape of Strapi 5's (cuid2's: 24 characters of `[a-z0-9]`, a letter
 * first), from about 123 random bits. cuid2 hashes a counter, the time and a host fingerprint
 * with SHA-3 and converts through big numbers: 125 µs an id on this machine, and a write makes one
 * per new component instance as well as per new document. Random bits make collisions as
 * unlikely without the ordering cuid2 does not promise either.
 */
export function newDocumentId(): string {
  let id = '';
  for (;;) {
    for (const byte of randomBytes(32)) {
      const c = byte % 36;
      // a byte past the last whole round of 36 would favour the first characters; the first is a letter
      if (byte >= UNBIASED || (id === '' && c >= 26)) continue;
      id += ALPHABET[c];
      if (id.length === 24) return id;
    }
  }
}
