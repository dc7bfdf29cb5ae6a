/**
 * The shadow CRUD writes Strapi 4 generates for upload's file type, on the upload service
 * and with upload's permissions (`upload` to write, `destroy` to delete):
 * - `createUploadFile` is refused: a record without stored bytes (any url, any provider) would
 *   be a file the provider never held, which its deletion would then try to remove. Files are
 *   created by `upload` and `multipleUpload`.
 * - `updateUploadFile` changes what `updateFileInfo` changes (name, alternative text, caption);
 *   any other attribute describes the stored bytes and is refused rather than silently ignored.
 * - `deleteUploadFile` is `removeFile`. Like every shadow CRUD write, an unknown id answers
 *   `data: null`.
 * Strapi 5 (the flat shape) keeps only the last two, as upload's own operations answering the file:
 * `updateUploadFile(id, info: FileInfoInput): UploadFile!` (an unknown id: NotFoundError) and
 * `deleteUploadFile(id): UploadFile` (an unknown id: null).
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, extendType, idArg, nonNull } from 'nexus';
import { notFound, validationError } from '../../../core/index.ts';
import type { FileInfo, UploadService } from '../../upload/service.ts';
import { allow, plainInput } from '../resolver-context.ts';
import type { SchemaExtension } from '../schema/build.ts';
import type { BuildContext } from '../schema/context.ts';
import { fileInfoInput } from '../schema/extra.ts';
import { DESTROY, infoOf, rowId, UPLOAD } from './operations.ts';
import { fileDocument, fileResponse } from './shape.ts';

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Args = Record<string, unknown>;

const EDITABLE = new Set(['name', 'alternativeText', 'caption']);

/** `updateFileInfo`'s info, from an `UploadFileInput` that must hold nothing else. */
function editOf(data: unknown): FileInfo {
  const d = plainInput(data);
  const other = Object.keys(d).filter((key) => !EDITABLE.has(key) && d[key] !== null && d[key] !== undefined);
  if (other.length > 0)
    throw validationError(`Only name, alternativeText and caption can be changed: ${other.join(', ')}`, {
      keys: other,
    });
  return infoOf(d);
}

/**
 * The file type's shadow CRUD writes; `writes(action)` tells which the app's `register` left on
 * (`shadowCRUD('plugin::upload.file').disableMutations()`, `disableAction('update')`, …).
 */
export const uploadFileCrud =
  (service: () => UploadService, writes: (action: string) => boolean = () => true) =>
  (ctx: Pick<BuildContext, 'shape'>): SchemaExtension =>
    ctx.shape === 'flat' ? flatCrud(service, writes) : entityCrud(service, writes);

function entityCrud(service: () => UploadService, writes: (action: string) => boolean): SchemaExtension {
  const createUploadFile: Resolver = async (_source, _args, context) => {
    allow(context, UPLOAD);
    throw validationError('Files are created by the upload and multipleUpload mutations', { key: 'data' });
  };
  const updateUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, UPLOAD);
    const edit = editOf(args.data);
    // an unknown id, or one that names no file, answers `data: null`
    const id = rowId(args.id);
    if (id === null || !(await service().findById(id))) return fileResponse(null, info);
    return fileResponse(await service().updateInfo(id, edit), info);
  };
  const deleteUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, DESTROY);
    const id = rowId(args.id);
    return fileResponse(id === null ? null : await service().remove(id), info);
  };

  const types = [
    extendType({
      type: 'Mutation',
      definition(t) {
        const data = { data: nonNull(arg({ type: 'UploadFileInput' })) };
        const id = { id: nonNull(idArg()) };
        if (writes('create')) t.field('createUploadFile', { type: 'UploadFileEntityResponse', args: data });
        if (writes('update'))
          t.field('updateUploadFile', { type: 'UploadFileEntityResponse', args: { ...id, ...data } });
        if (writes('delete')) t.field('deleteUploadFile', { type: 'UploadFileEntityResponse', args: id });
      },
    }),
  ];
  return { types, resolvers: { Mutation: { createUploadFile, updateUploadFile, deleteUploadFile } } };
}

/** Strapi 5's file writes: upload's own, with `FileInfoInput`, answering the `UploadFile` itself. */
function flatCrud(service: () => UploadService, writes: (action: string) => boolean): SchemaExtension {
  const updateUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, UPLOAD);
    const id = rowId(args.id);
    if (id === null || !(await service().findById(id))) throw notFound('Entity not found');
    return fileDocument(await service().updateInfo(id, infoOf(args.info)), info);
  };
  const deleteUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, DESTROY);
    const id = rowId(args.id);
    return fileDocument(id === null ? null : await service().remove(id), info);
  };
  const types = [
    fileInfoInput(),
    extendType({
      type: 'Mutation',
      definition(t) {
        const id = { id: nonNull(idArg()) };
        if (writes('update'))
          t.nonNull.field('updateUploadFile', {
            type: 'UploadFile',
            args: { ...id, info: arg({ type: 'FileInfoInput' }) },
          });
        if (writes('delete')) t.field('deleteUploadFile', { type: 'UploadFile', args: id });
      },
    }),
  ];
  return { types, resolvers: { Mutation: { updateUploadFile, deleteUploadFile } } };
}
