/**
 * Upload's operations as Strapi 4's GraphQL plugin has them: `upload`, `multipleUpload`,
 * `updateFileInfo`, `removeFile`, through the upload plugin's service (same size limits,
 * formats and linking rules). The files come from a multipart request (multipart.ts). Strapi 5
 * has none of them (the flat shape): its file writes are crud.ts's.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, extendType, idArg, list, nonNull, stringArg } from 'nexus';
import { DOCUMENT_ID, forbidden, notFound, type RequestAuth, validationError } from '../../../core/index.ts';
import type { IncomingFile } from '../../upload/multipart.ts';
import type { FileInfo, UploadService } from '../../upload/service.ts';
import { allow } from '../resolver-context.ts';
import type { SchemaExtension } from '../schema/build.ts';
import type { BuildContext } from '../schema/context.ts';
import { fileInfoInput } from '../schema/extra.ts';
import { fileResponse } from './shape.ts';

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Args = Record<string, unknown>;

/** upload's actions: `upload` to write a file, `destroy` to delete one */
export const UPLOAD = 'plugin::upload.content-api.upload';
export const DESTROY = 'plugin::upload.content-api.destroy';

/** An `Upload` value: only a multipart request's file part is one (JSON cannot make a Buffer). */
function fileOf(value: unknown, key: string): IncomingFile {
  const f = value as IncomingFile | null;
  if (!f || typeof f !== 'object' || !Buffer.isBuffer(f.buffer))
    throw validationError(`${key} must be a file of a multipart request`, { key });
  return f;
}

/** What a file's info may change (`FileInfoInput`): its name, alternative text and caption. */
export function infoOf(value: unknown): FileInfo {
  const info: FileInfo = {};
  if (typeof value !== 'object' || value === null) return info;
  const v = value as Record<string, unknown>;
  if (typeof v.name === 'string' && v.name !== '') info.name = v.name;
  for (const key of ['alternativeText', 'caption'] as const) {
    if (typeof v[key] === 'string' || v[key] === null) info[key] = v[key] as string | null;
  }
  return info;
}

/** A file's row id; null for anything that names none. */
export const rowId = (raw: unknown): number | null =>
  typeof raw === 'string' && /^\d{1,15}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;

function idOf(raw: unknown): number {
  const id = rowId(raw);
  if (id === null) throw validationError('Invalid file id', { key: 'id' });
  return id;
}

/** `ref`, `refId` and `field` together link the uploads; linking needs `<ref>.update`, as in REST. */
function linkOf(args: Args, auth: RequestAuth) {
  const { ref, refId, field } = args;
  if (ref == null && refId == null && field == null) return undefined;
  if (typeof ref !== 'string' || typeof refId !== 'string' || typeof field !== 'string' || !ref || !field)
    throw validationError('ref, refId and field go together', { key: 'ref' });
  if (!/^\d{1,15}$/.test(refId) && !DOCUMENT_ID.test(refId))
    throw validationError('Invalid refId: expected a row id or a documentId', { key: 'refId' });
  if (!auth.allows(`${ref}.update`)) throw forbidden();
  return { ref, refId, field, locale: undefined };
}

/** The operations, in the entity shape; none in the flat one. */
export const uploadOperations =
  (service: () => UploadService) =>
  (ctx: Pick<BuildContext, 'shape'>): SchemaExtension =>
    ctx.shape === 'flat' ? { types: [], resolvers: {} } : operations(service);

function operations(service: () => UploadService): SchemaExtension {
  const upload: Resolver = async (_source, args, context, info) => {
    const auth = allow(context, UPLOAD);
    const file = fileOf(args.file, 'file');
    const [doc] = await service().upload([file], [infoOf(args.info)], linkOf(args, auth));
    return fileResponse(doc, info);
  };
  const multipleUpload: Resolver = async (_source, args, context, info) => {
    const auth = allow(context, UPLOAD);
    const files = (Array.isArray(args.files) ? (args.files as unknown[]) : []).map((f, i) => fileOf(f, `files.${i}`));
    if (files.length === 0) throw validationError('Files are empty', { key: 'files' });
    const docs = await service().upload(files, [], linkOf(args, auth));
    return docs.map((doc) => fileResponse(doc, info));
  };
  const updateFileInfo: Resolver = async (_source, args, context, info) => {
    allow(context, UPLOAD);
    return fileResponse(await service().updateInfo(idOf(args.id), infoOf(args.info)), info);
  };
  const removeFile: Resolver = async (_source, args, context, info) => {
    allow(context, DESTROY);
    const doc = await service().remove(idOf(args.id));
    if (!doc) throw notFound('file.notFound');
    return fileResponse(doc, info);
  };

  const link = { refId: idArg(), ref: stringArg(), field: stringArg() };
  const types = [
    fileInfoInput(),
    extendType({
      type: 'Mutation',
      definition(t) {
        t.nonNull.field('upload', {
          type: 'UploadFileEntityResponse',
          args: { ...link, info: arg({ type: 'FileInfoInput' }), file: nonNull(arg({ type: 'Upload' })) },
        });
        t.nonNull.list.field('multipleUpload', {
          type: 'UploadFileEntityResponse',
          args: { ...link, files: nonNull(list(arg({ type: 'Upload' }))) },
        });
        t.nonNull.field('updateFileInfo', {
          type: 'UploadFileEntityResponse',
          args: { id: nonNull(idArg()), info: arg({ type: 'FileInfoInput' }) },
        });
        t.field('removeFile', { type: 'UploadFileEntityResponse', args: { id: nonNull(idArg()) } });
      },
    }),
  ];
  return { types, resolvers: { Mutation: { upload, multipleUpload, updateFileInfo, removeFile } } };
}
