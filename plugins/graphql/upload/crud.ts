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
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, extendType, idArg, nonNull } from 'nexus';
import { forbidden, validationError } from '../../../core/index.ts';
import type { FileInfo, UploadService } from '../../upload/service.ts';
import type { ResolverContext } from '../resolver-context.ts';
import type { SchemaExtension } from '../schema/build.ts';
import { fileResponse } from './shape.ts';

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Args = Record<string, unknown>;

const UPLOAD = 'plugin::upload.content-api.upload';
const DESTROY = 'plugin::upload.content-api.destroy';
const EDITABLE = new Set(['name', 'alternativeText', 'caption']);

function allow(context: unknown, action: string): void {
  if (!(context as ResolverContext).auth.allows(action)) throw forbidden();
}

/** A row id; anything else names no file (`data: null`, as an unknown id). */
function idOf(raw: unknown): number | null {
  return typeof raw === 'string' && /^\d{1,15}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

function editOf(data: unknown): FileInfo {
  const d: Args = typeof data === 'object' && data !== null ? { ...data } : {};
  const other = Object.keys(d).filter((key) => !EDITABLE.has(key) && d[key] !== null && d[key] !== undefined);
  if (other.length > 0)
    throw validationError(`Only name, alternativeText and caption can be changed: ${other.join(', ')}`, {
      keys: other,
    });
  const info: FileInfo = {};
  if (typeof d.name === 'string' && d.name !== '') info.name = d.name;
  for (const key of ['alternativeText', 'caption'] as const) {
    if (typeof d[key] === 'string' || d[key] === null) info[key] = d[key] as string | null;
  }
  return info;
}

export function uploadFileCrud(service: () => UploadService): SchemaExtension {
  const createUploadFile: Resolver = async (_source, _args, context) => {
    allow(context, UPLOAD);
    throw validationError('Files are created by the upload and multipleUpload mutations', { key: 'data' });
  };
  const updateUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, UPLOAD);
    const edit = editOf(args.data);
    const id = idOf(args.id);
    if (id === null || !(await service().findById(id))) return fileResponse(null, info);
    return fileResponse(await service().updateInfo(id, edit), info);
  };
  const deleteUploadFile: Resolver = async (_source, args: Args, context, info) => {
    allow(context, DESTROY);
    const id = idOf(args.id);
    return fileResponse(id === null ? null : await service().remove(id), info);
  };

  const types = [
    extendType({
      type: 'Mutation',
      definition(t) {
        const data = { data: nonNull(arg({ type: 'UploadFileInput' })) };
        const id = { id: nonNull(idArg()) };
        t.field('createUploadFile', { type: 'UploadFileEntityResponse', args: data });
        t.field('updateUploadFile', { type: 'UploadFileEntityResponse', args: { ...id, ...data } });
        t.field('deleteUploadFile', { type: 'UploadFileEntityResponse', args: id });
      },
    }),
  ];
  return { types, resolvers: { Mutation: { createUploadFile, updateUploadFile, deleteUploadFile } } };
}
