import { statusName, ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';
import { AppError, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { cleanFileName, describeKinds, detectFileType, looksLikeMarkup, safeTextFileName, type FileKind } from '#server/lib/file-types.ts';
import type { Principal } from '#server/plugins/access.ts';
import * as repo from './tickets-repository.ts';
import { changeOf, loadInReach, type TicketsDeps, type TicketView } from './tickets-service.ts';

/** SECURITY.md "Input and files": documents ≤ 10 MB, type checked by content against an allow list. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS_PER_TICKET = 20;
export const MAX_FILES_PER_UPLOAD = 5;
export const allowedDocumentKinds: readonly FileKind[] = ['pdf', 'png', 'jpeg', 'gif', 'webp', 'docx', 'xlsx', 'pptx', 'text'];

const FINAL = [ticketStatuses.Closed, ticketStatuses.Cancelled] as number[];

export interface UploadedFile {
  fileName: string | undefined;
  content: Buffer;
}

export async function uploadDocuments(deps: TicketsDeps, p: Principal, ticketId: number, files: UploadedFile[], view: TicketView) {
  if (!files.length) throw ValidationFailure.field('file', 'Choose at least one file to upload.');
  if (files.length > MAX_FILES_PER_UPLOAD) throw ValidationFailure.field('file', `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time.`);
  const checked = files.map((file, index) => {
    const name = cleanFileName(file.fileName, `document-${index + 1}`);
    if (file.content.length === 0) throw ValidationFailure.field('file', `${name} is empty.`);
    if (file.content.length > MAX_DOCUMENT_BYTES) throw new AppError(413, `${name} is larger than 10 MB.`);
    const type = detectFileType(file.content);
    if (!type || !allowedDocumentKinds.includes(type.kind)) {
      throw new AppError(415, `${name} is not an allowed document type. Allowed: ${describeKinds(allowedDocumentKinds)}.`);
    }
    if (type.kind === 'text') {
      if (looksLikeMarkup(file.content))
        throw new AppError(415, `${name} holds HTML, SVG or script markup, which is not accepted. Send it as a PDF or an image.`);
      return { name: safeTextFileName(name), type, content: file.content };
    }
    return { name, type, content: file.content };
  });

  const now = deps.clock.now();
  const { ticket, documents } = await deps.db.transaction(async (tx) => {
    const ticket = await loadInReach(tx, p, ticketId, view);
    if (FINAL.includes(ticket.status_id)) {
      throw conflict(`Ticket ${ticketId} is ${statusName(ticket.status_id)}; documents can no longer be added.`, {
        currentStatus: statusName(ticket.status_id),
      });
    }
    const existing = await repo.countDocuments(tx, ticket.id);
    if (existing + checked.length > MAX_DOCUMENTS_PER_TICKET) {
      throw ValidationFailure.field('file', `A ticket holds at most ${MAX_DOCUMENTS_PER_TICKET} documents; it has ${existing}.`);
    }
    const documents: repo.DocumentRow[] = [];
    for (const file of checked) {
      const doc = await repo.insertDocument(tx, {
        ticketId: ticket.id,
        fileName: file.name,
        contentType: file.type.mime,
        content: file.content,
        uploadedBy: p.userId,
        now,
      });
      documents.push(doc);
      await repo.insertHistory(tx, {
        ticketId: ticket.id,
        event: 'document.added',
        fromStatus: ticket.status_id,
        toStatus: ticket.status_id,
        actorId: p.userId,
        actorKind: 'user',
        details: { documentId: doc.id, fileName: doc.file_name, sizeBytes: doc.size_bytes },
        at: now,
      });
    }
    return { ticket, documents };
  });
  deps.events.emit('ticket.changed', changeOf(ticket, ticket, 'document.added', p.userId, now));
  return documents;
}

export async function listTicketDocuments(deps: TicketsDeps, p: Principal, ticketId: number, view: TicketView) {
  const ticket = await loadInReach(deps.db, p, ticketId, view);
  return repo.listDocuments(deps.db, ticket.id);
}

export async function readDocument(deps: TicketsDeps, p: Principal, documentId: string, view: TicketView) {
  const doc = await repo.findDocument(deps.db, p.tenantId, documentId);
  if (!doc) throw notFound(`Document ${documentId} was not found.`);
  try {
    await loadInReach(deps.db, p, doc.ticket_id, view);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw notFound(`Document ${documentId} was not found.`);
    throw error;
  }
  return doc;
}

export async function removeDocument(deps: TicketsDeps, p: Principal, documentId: string, view: TicketView) {
  const now = deps.clock.now();
  const ticket = await deps.db.transaction(async (tx) => {
    const doc = await repo.findDocument(tx, p.tenantId, documentId);
    if (!doc) throw notFound(`Document ${documentId} was not found.`);
    let ticket: repo.TicketListRow;
    try {
      ticket = await loadInReach(tx, p, doc.ticket_id, view);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) throw notFound(`Document ${documentId} was not found.`);
      throw error;
    }
    if (view === 'requester' && doc.uploaded_by !== p.userId) throw forbidden('You can delete only the documents you uploaded.');
    if (FINAL.includes(ticket.status_id)) {
      throw conflict(`Ticket ${ticket.id} is ${statusName(ticket.status_id)}; its documents can no longer change.`, {
        currentStatus: statusName(ticket.status_id),
      });
    }
    await repo.deleteDocument(tx, doc.id);
    await repo.insertHistory(tx, {
      ticketId: ticket.id,
      event: 'document.deleted',
      fromStatus: ticket.status_id,
      toStatus: ticket.status_id,
      actorId: p.userId,
      actorKind: 'user',
      details: { documentId: doc.id, fileName: doc.file_name },
      at: now,
    });
    return ticket;
  });
  deps.events.emit('ticket.changed', changeOf(ticket, ticket, 'document.deleted', p.userId, now));
}
