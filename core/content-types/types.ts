/**
 * The typed model of Strapi-format content-type and component schemas.
 * Files on disk are parsed into these shapes by `load.ts` and checked by `validate-schema.ts`.
 */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'blocks',
  'enumeration',
  'email',
  'password',
  'uid',
  'date',
  'time',
  'datetime',
  'timestamp',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'json',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

interface BaseAttribute {
  required?: boolean;
  private?: boolean;
  configurable?: boolean;
  pluginOptions?: Record<string, unknown>;
}

export interface ScalarAttribute extends BaseAttribute {
  type: ScalarType;
  unique?: boolean;
  default?: unknown;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  /** enumeration values */
  enum?: string[];
  /** uid: the attribute it is derived from (informational here) */
  targetField?: string;
  /** false: `_q` does not search it (Strapi's option) */
  searchable?: boolean;
}

export interface RelationAttribute extends BaseAttribute {
  type: 'relation';
  relation: RelationKind;
  target: string;
  inversedBy?: string;
  mappedBy?: string;
}

export interface MediaAttribute extends BaseAttribute {
  type: 'media';
  multiple?: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttribute extends BaseAttribute {
  type: 'component';
  component: string;
  repeatable?: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends BaseAttribute {
  type: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute =
  | ScalarAttribute
  | RelationAttribute
  | MediaAttribute
  | ComponentAttribute
  | DynamicZoneAttribute;

export type Attributes = Record<string, Attribute>;

export interface ContentTypeInfo {
  singularName: string;
  pluralName: string;
  displayName?: string;
  description?: string;
}

/** A content-type as registered: the schema file plus the facts derived from where it came from. */
export interface ContentType {
  uid: string;
  kind: 'collectionType' | 'singleType';
  collectionName: string;
  info: ContentTypeInfo;
  options: { draftAndPublish?: boolean; [key: string]: unknown };
  pluginOptions: { i18n?: { localized?: boolean }; [key: string]: unknown };
  attributes: Attributes;
  /** `api` for app content-types, the plugin's name for plugin ones */
  origin: string;
  /** file the schema came from, for error messages ('' when declared in code) */
  source: string;
}

export interface Component {
  uid: string;
  category: string;
  collectionName: string;
  info: { displayName?: string; [key: string]: unknown };
  attributes: Attributes;
  source: string;
}

/** The uid the media attribute points at: Strapi models media as relations to upload files. */
export const FILE_UID = 'plugin::upload.file';

export function isScalar(attr: Attribute): attr is ScalarAttribute {
  return (SCALAR_TYPES as readonly string[]).includes(attr.type);
}

/** Whether documents of `ct` have one version per locale (`pluginOptions.i18n.localized`). */
export const isLocalized = (ct: ContentType): boolean => ct.pluginOptions.i18n?.localized === true;

/** Relations whose owning side holds many targets (stored as an ordered array). */
export function isToMany(attr: RelationAttribute): boolean {
  return attr.relation === 'oneToMany' || attr.relation === 'manyToMany' || attr.relation === 'manyWay';
}

/** Populatable attributes: everything that is not returned by default. */
export function isPopulatable(attr: Attribute): boolean {
  return attr.type === 'relation' || attr.type === 'media' || attr.type === 'component' || attr.type === 'dynamiczone';
}
