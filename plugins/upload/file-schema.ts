import { type ContentType, FILE_UID } from '../../core/index.ts';

/** `plugin::upload.file`: uploaded files are documents like any other, in the `files` table. */
export const fileContentType: ContentType = {
  uid: FILE_UID,
  kind: 'collectionType',
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  origin: 'upload',
  source: '',
  attributes: {
    name: { type: 'string', required: true },
    alternativeText: { type: 'text' },
    caption: { type: 'text' },
    focalPoint: { type: 'json' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    formats: { type: 'json' },
    hash: { type: 'string', required: true },
    ext: { type: 'string' },
    mime: { type: 'string', required: true },
    size: { type: 'decimal', required: true },
    url: { type: 'string', required: true },
    previewUrl: { type: 'string' },
    provider: { type: 'string', required: true },
    provider_metadata: { type: 'json' },
    folderPath: { type: 'string', private: true },
  },
};
