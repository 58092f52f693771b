/**
 * AES-GCM for the saved client state (docs/decisions/0012). The key is derived with HKDF-SHA-256
 * from the configured `persistSecret` (a random server-generated value, so no password
 * stretching is needed), salted with the product key. Each write has a fresh 96-bit IV; the
 * slice name is bound as additional data, so a ciphertext moved to another slice fails.
 * Format: `v1.<base64url IV>.<base64url ciphertext+tag>`.
 */
export const CIPHER_VERSION = 'v1';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function deriveKey(secret: string, productKey: string, subtle: SubtleCrypto): Promise<CryptoKey> {
  const material = await subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(`${productKey}:persist`), info: encoder.encode('client state v1') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

export async function encryptText(key: CryptoKey, plaintext: string, context: string, subtle: SubtleCrypto): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, encoder.encode(plaintext));
  return `${CIPHER_VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** Rejects when the text is not ours, was changed, or was sealed with another key. */
export async function decryptText(key: CryptoKey, payload: string, context: string, subtle: SubtleCrypto): Promise<string> {
  const [version, iv, sealed, ...rest] = payload.split('.');
  if (version !== CIPHER_VERSION || !iv || !sealed || rest.length) throw new Error('Not an encrypted state');
  const opened = await subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64Url(iv) as BufferSource, additionalData: encoder.encode(context) },
    key,
    fromBase64Url(sealed) as BufferSource,
  );
  return decoder.decode(opened);
}
