/**
 * Keys that never leave this browser (docs/decisions/0100): WebCrypto keys created
 * non-extractable and kept in IndexedDB, which stores the CryptoKey objects themselves. Script
 * on the page can use them but nobody can read them out, so what they protect cannot be
 * replayed from another machine:
 * - `dpop`: an ECDSA P-256 pair whose proofs bind the refresh-token family (RFC 9449);
 * - `persist`: an AES-GCM key wrapping the saved state inside the configured-secret layer.
 * Where IndexedDB or WebCrypto is missing (old browsers, tests in jsdom) both are null and the
 * app works as before.
 */
const DB_NAME = 'exam-portal-device-keys';
const STORE = 'keys';

function openKeyDb(): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    try {
      if (typeof indexedDB === 'undefined') return resolve(null);
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const pending = new Map<string, Promise<unknown>>();

/** The named key, created on first use; one creation even when tabs of this page ask at once. */
function keyOf<T>(name: string, create: (subtle: SubtleCrypto) => Promise<T>): Promise<T | null> {
  let found = pending.get(name) as Promise<T | null> | undefined;
  if (!found) {
    found = (async () => {
      const subtle = globalThis.crypto?.subtle;
      const db = subtle ? await openKeyDb() : null;
      if (!subtle || !db) return null;
      try {
        const existing = await requestResult(db.transaction(STORE).objectStore(STORE).get(name));
        if (existing) return existing as T;
        const created = await create(subtle);
        // `add`, not `put`: if another tab stored one first, its key wins and is read back.
        await requestResult(db.transaction(STORE, 'readwrite').objectStore(STORE).add(created, name)).catch(() => undefined);
        return ((await requestResult(db.transaction(STORE).objectStore(STORE).get(name))) as T) ?? created;
      } catch {
        return null;
      } finally {
        db.close();
      }
    })();
    pending.set(name, found);
  }
  return found;
}

export const deviceKeys = {
  dpop: () =>
    keyOf<CryptoKeyPair>('dpop', (subtle) => subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']) as Promise<CryptoKeyPair>),
  persist: () => keyOf<CryptoKey>('persist', (subtle) => subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])),
};

const base64Url = (bytes: Uint8Array) => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const jsonPart = (value: unknown) => base64Url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * A DPoP proof (RFC 9449 §4.2) for one request, or undefined when this browser cannot keep a
 * key. ECDSA signatures from WebCrypto are already the r‖s form JWS ES256 wants.
 */
export async function dpopProof(method: string, url: string): Promise<string | undefined> {
  const pair = await deviceKeys.dpop();
  return pair ? signDpopProof(pair, method, url) : undefined;
}

/** The proof itself, signed with the given pair (tests check it against the server's verifier). */
export async function signDpopProof(pair: CryptoKeyPair, method: string, url: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const { kty, crv, x, y } = (await subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  const signingInput = `${jsonPart({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })}.${jsonPart({
    htm: method,
    htu: url.split(/[?#]/)[0],
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
  })}`;
  const signature = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64Url(new Uint8Array(signature))}`;
}
