/** What the type builders share while the schema is built (one per build, never module state). */
import { arg } from 'nexus';
import type { ArgsRecord } from 'nexus/dist/core.js';
import { type Attribute, type ContentType, isLocalized, type Registry } from '../../../core/index.ts';
import type { ShadowCrud } from '../extension/shadow-crud.ts';
import { componentName, dynamicZoneName, enumName } from '../naming.ts';
import { isExposed } from './model.ts';
import type { TypeRole } from './model.ts';

export interface BuildContext {
  registry: Registry;
  /** the type names of the content-types in the schema (exposed, not disabled), by uid */
  names: ReadonlyMap<string, string>;
  /** generated types' roles, filled in as types are defined */
  roles: Map<string, TypeRole>;
  /** what the app's `register` disabled (Strapi's shadow CRUD manager) */
  shadow: ShadowCrud;
  /** Strapi 4's entity shape (the default) or Strapi 5's flat one (`graphql.config.shape`) */
  shape: Shape;
  /** with the flat shape: Strapi 5's `v4CompatibilityMode` fields */
  v4Compat: boolean;
}

export type Shape = 'entity' | 'flat';

/** Where an attribute of a content-type or component may appear: its output type, input or filters. */
export type FieldPart = 'output' | 'input' | 'filters';

/** Whether the shadow CRUD keeps attribute `name` of `uid` in that `part` (`field(name).disableOutput()`, …). */
export function hasField(ctx: BuildContext, uid: string, name: string, part: FieldPart): boolean {
  const field = ctx.shadow(uid).field(name);
  if (part === 'output') return field.hasOutputEnabled();
  return part === 'input' ? field.hasInputEnabled() : field.hasFiltersEnabeld();
}

/** Whether a component's types are generated (`shadowCRUD('shared.seo').disable()` drops them). */
export const hasComponent = (ctx: BuildContext, uid: string): boolean => ctx.shadow(uid).isEnabled();

/** The type name a content-type's or component's fields belong to (`Article`, `ComponentSharedSeo`). */
export const ownerName = (ctx: BuildContext, uid: string): string => ctx.names.get(uid) ?? componentName(uid);

/** A relation's target type name, when its target is in the schema (exposed, not disabled: Strapi skips it). */
export function targetName(ctx: BuildContext, attr: Attribute): string | undefined {
  if (attr.type !== 'relation') return undefined;
  if (!ctx.registry.hasContentType(attr.target) || !isExposed(ctx.registry.contentType(attr.target))) return undefined;
  return ctx.names.get(attr.target);
}

/** The enum type of an enumeration attribute (its `enumName` when set). */
export function enumTypeOf(owner: string, name: string, attr: Attribute): string {
  const own = (attr as { enumName?: unknown }).enumName;
  return typeof own === 'string' ? own : enumName(owner, name);
}

export const dzTypeOf = (owner: string, name: string): string => dynamicZoneName(owner, name);

export const hasDraftAndPublish = (ct: ContentType): boolean => ct.options.draftAndPublish === true;

/** i18n's `locale` argument, on the fields of localized types (Strapi 4 adds it the same way). */
export const localeArg = (ct: ContentType): ArgsRecord =>
  isLocalized(ct) ? { locale: arg({ type: 'I18NLocaleCode' }) } : {};
