import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, ValidationFailure } from './errors.ts';

/**
 * The one file of a multipart upload (field "file"), read whole within `maxBytes`: too large is a
 * 413 with `tooLarge`, more than one file or none a field error, a broken body a 400 — never a 500.
 * Its type is then the caller's to check by content (file-types.ts), never by name or header.
 */
export async function oneFile(request: FastifyRequest, maxBytes: number, tooLarge: string) {
  if (!request.isMultipart()) throw new AppError(415, 'Send the file as multipart/form-data with the field "file".');
  let file: { fileName: string | undefined; content: Buffer } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 5 } })) {
      if (part.type === 'file') {
        const upload = part as MultipartFile;
        file = { fileName: upload.filename, content: await upload.toBuffer() };
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, tooLarge);
    if (code === 'FST_FILES_LIMIT') throw ValidationFailure.field('file', 'Upload one file at a time.');
    if (code?.startsWith('FST_')) throw badRequest('The upload could not be read as multipart/form-data.');
    throw error;
  }
  if (!file) throw ValidationFailure.field('file', 'Choose the file to upload.');
  return file;
}
