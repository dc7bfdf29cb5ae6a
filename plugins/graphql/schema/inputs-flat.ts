/**
 * A content-type's input types in Strapi 5's flat shape: `XFiltersInput` (`documentId`, not `id`;
 * private attributes left out; `publishedAt` on every type) and `XInput` (`publishedAt` on every
 * type). Components' inputs are the same in both shapes (inputs.ts).
 */
import { inputObjectType } from 'nexus';
import { type ContentType, isLocalized } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { type BuildContext, hasField, ownerName } from './context.ts';
import { attributeFilters, attributeInputs, dynamicZoneInputs, logical } from './inputs.ts';

export function contentTypeInputsFlat(ctx: BuildContext, ct: ContentType) {
  const name = ownerName(ctx, ct.uid);
  const filters = n.filtersName(name);
  const filtered = (field: string): boolean => hasField(ctx, ct.uid, field, 'filters');
  return [
    ...dynamicZoneInputs(name, ct.attributes),
    inputObjectType({
      name: filters,
      definition(t) {
        if (ct.kind === 'collectionType' && filtered('documentId')) t.field('documentId', { type: 'IDFilterInput' });
        attributeFilters(ctx, t, ct.uid, ct.attributes);
        if (filtered('createdAt')) t.field('createdAt', { type: 'DateTimeFilterInput' });
        if (filtered('updatedAt')) t.field('updatedAt', { type: 'DateTimeFilterInput' });
        if (filtered('publishedAt')) t.field('publishedAt', { type: 'DateTimeFilterInput' });
        if (isLocalized(ct)) {
          if (filtered('localizations')) t.field('localizations', { type: filters });
          if (filtered('locale')) t.field('locale', { type: 'StringFilterInput' });
        }
        logical(t, filters);
      },
    }),
    inputObjectType({
      name: n.inputName(name),
      definition(t) {
        attributeInputs(ctx, t, ct.uid, name, ct.attributes);
        // Strapi 5 shows it on every type; without draft & publish a document is always published
        if (hasField(ctx, ct.uid, 'publishedAt', 'input')) t.field('publishedAt', { type: 'DateTime' });
      },
    }),
  ];
}
