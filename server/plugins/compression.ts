import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** JSON bodies only (application/json, application/problem+json…): what the API answers. */
export const compressibleJson = (contentType: string) => /^application\/(?:[\w.-]+\+)?json(?:;|$)/i.test(contentType);

/**
 * Issue 22: API answers of 1 KB and more are sent brotli- or gzip-compressed when the client
 * accepts it (docs/decisions/0131). Only JSON: downloads (spreadsheets, documents, exports)
 * keep their bytes, length and type untouched; built assets already come pre-compressed from
 * @fastify/static; the WebSocket is an upgrade and has no body to compress. Request bodies are
 * never inflated (no new way to send a small body that grows in memory).
 */
export const compressionPlugin = fp(async function compression(app: FastifyInstance) {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: compressibleJson,
  });
});
