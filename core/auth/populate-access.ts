/**
 * Brief, Authentication rule 7: populating a relation requires the `find` permission on the
 * related content-type. Relations the request may not read are dropped from the populate
 * tree (not an error, as in Strapi: the field is simply not populated), at any depth,
 * including inside components and dynamic-zone components. Media need the upload plugin's
 * `find`, the permission that guards the file routes.
 */
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, type Attribute } from '../content-types/types.ts';
import { attributeOf, LOCALIZATIONS, type PopulateNode, type PopulateTree } from '../query/types.ts';
import { targetUids } from '../query/populate.ts';

export const MEDIA_FIND_ACTION = 'plugin::upload.content-api.find';

/** The permission action that reading a content-type's documents through a populate needs. */
export const findActionOf = (uid: string): string => (uid === FILE_UID ? MEDIA_FIND_ACTION : `${uid}.find`);

function pruneNode(
  registry: Registry,
  uids: string[],
  node: PopulateNode,
  allows: (action: string) => boolean,
): PopulateNode {
  const out: PopulateNode = { ...node };
  if (node.populate) {
    // a node's nested populate applies to each uid it may reach (one, or a dynamic zone's components)
    let tree: PopulateTree | undefined = node.populate;
    // (keys of one component are left alone by the others' passes)
    for (const uid of uids) tree = prunePopulate(registry, uid, tree, allows, uids.length > 1);
    out.populate = tree;
  }
  if (node.on) {
    out.on = Object.fromEntries(
      Object.entries(node.on).map(([uid, n]) => [uid, pruneNode(registry, [uid], n, allows)]),
    );
  }
  return out;
}

/** The permission populating `attr` needs: the target's find (media: the upload plugin's); none for components. */
function actionOf(attr: Attribute): string | undefined {
  if (attr.type === 'relation') return findActionOf(attr.target);
  if (attr.type === 'media') return MEDIA_FIND_ACTION;
  return undefined;
}

/** `tree` on `uid` without the relations and media the request may not read. */
export function prunePopulate(
  registry: Registry,
  uid: string,
  tree: PopulateTree | undefined,
  allows: (action: string) => boolean,
  keepUnknown = false,
): PopulateTree | undefined {
  if (!tree) return tree;
  const attributes = registry.attributesOf(uid);
  const out: PopulateTree = {};
  // keys are output keys (GraphQL aliases): permissions follow the attribute each one populates
  for (const [key, node] of Object.entries(tree)) {
    const name = attributeOf(key, node);
    if (name === LOCALIZATIONS) {
      // other locales of the same type: the same permission as the read itself
      if (allows(findActionOf(uid))) out[key] = pruneNode(registry, [uid], node, allows);
      continue;
    }
    const attr = Object.hasOwn(attributes, name) ? attributes[name] : undefined;
    if (!attr) {
      if (keepUnknown) out[key] = node;
      continue;
    }
    const action = actionOf(attr);
    if (action && !allows(action)) continue;
    out[key] = pruneNode(registry, targetUids(attr), node, allows);
  }
  return out;
}
