/**
 * Generation keys finer than a content type's. Every write of a type bumps the type's key (its
 * uid), which every read of the type depends on: a list may show any document. A read of one
 * document by its documentId that reaches no relation shows only that document's rows (and
 * files), so it depends on its document's key (and the file type) instead: a write of another
 * document of the type leaves it cached. (Through a relation, another document's write can change
 * the answer without writing this document: response-cache.ts `noteDocumentRead`.) A write names
 * the document it wrote (every document-service action does, or answers it); a write that cannot
 * bumps the type's "any document" key, which every such read depends on too. Documents share
 * DOCUMENT_BUCKETS keys per type (a hash of the documentId): the keys are rows of
 * `vellum_generations` and entries of every instance's memory, so their number is bounded; two
 * documents sharing one only invalidate each other's answers more often.
 */
export const DOCUMENT_BUCKETS = 1024;

/** FNV-1a over the documentId's UTF-16 units: spreads short random ids evenly, no allocation. */
function bucket(documentId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < documentId.length; i++) {
    h ^= documentId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % DOCUMENT_BUCKETS;
}

/** The key of document `documentId` of type `uid`. */
export const documentKey = (uid: string, documentId: string): string => `${uid}#${bucket(documentId)}`;

/** The key of a write of type `uid` that cannot say which document it changed. */
export const anyDocumentKey = (uid: string): string => `${uid}#*`;
