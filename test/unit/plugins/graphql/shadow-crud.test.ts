/** The shadow CRUD manager's getters before and after each setter, as Strapi's `shadow-crud-manager.js`. */
import { describe, expect, it } from 'vitest';
import {
  createShadowCrud,
  type ShadowCrudField,
  type ShadowCrudType,
} from '../../../../plugins/graphql/extension/shadow-crud.ts';

const ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];

const typeState = (h: ShadowCrudType) => ({
  enabled: h.isEnabled(),
  disabled: h.isDisabled(),
  queries: h.areQueriesEnabled(),
  queriesOff: h.areQueriesDisabled(),
  mutations: h.areMutationsEnabled(),
  mutationsOff: h.areMutationsDisabled(),
  on: ACTIONS.filter((a) => h.isActionEnabled(a)),
  off: ACTIONS.filter((a) => h.isActionDisabled(a)),
});

const fieldState = (f: ShadowCrudField) => ({
  enabled: f.isEnabled(),
  disabled: f.isDisabled(),
  input: f.hasInputEnabled(),
  output: f.hasOutputEnabled(),
  filters: f.hasFiltersEnabled(),
  filtersStrapi: f.hasFiltersEnabeld(),
});

const FRESH_TYPE = {
  enabled: true,
  disabled: false,
  queries: true,
  queriesOff: false,
  mutations: true,
  mutationsOff: false,
  on: ACTIONS,
  off: [],
};
const FRESH_FIELD = { enabled: true, disabled: false, input: true, output: true, filters: true, filtersStrapi: true };

describe('shadowCRUD(uid)', () => {
  it('starts with everything on, for any uid', () => {
    const shadow = createShadowCrud();
    expect(typeState(shadow('api::article.article'))).toEqual(FRESH_TYPE);
    expect(typeState(shadow('shared.seo'))).toEqual(FRESH_TYPE);
    expect(fieldState(shadow('api::article.article').field('title'))).toEqual(FRESH_FIELD);
  });

  it('disable() turns the type off, nothing else', () => {
    const shadow = createShadowCrud();
    expect(shadow('api::tag.tag').disable()).toBeDefined();
    expect(typeState(shadow('api::tag.tag'))).toEqual({ ...FRESH_TYPE, enabled: false, disabled: true });
    expect(typeState(shadow('api::article.article'))).toEqual(FRESH_TYPE);
  });

  it('disableQueries() and disableMutations()', () => {
    const shadow = createShadowCrud();
    shadow('a').disableQueries();
    expect(typeState(shadow('a'))).toEqual({ ...FRESH_TYPE, queries: false, queriesOff: true });
    shadow('b').disableMutations();
    expect(typeState(shadow('b'))).toEqual({ ...FRESH_TYPE, mutations: false, mutationsOff: true });
  });

  it('disableAction, disableActions and the * action', () => {
    const shadow = createShadowCrud();
    shadow('a').disableAction('delete');
    expect(typeState(shadow('a'))).toMatchObject({ on: ['find', 'findOne', 'create', 'update'], off: ['delete'] });
    shadow('b').disableActions(['find', 'create']);
    expect(typeState(shadow('b'))).toMatchObject({ on: ['findOne', 'update', 'delete'], off: ['find', 'create'] });
    shadow('c').disableActions();
    expect(typeState(shadow('c'))).toEqual(FRESH_TYPE);
    shadow('d').disableAction('*');
    expect(typeState(shadow('d'))).toMatchObject({ on: [], off: ACTIONS, queries: true, mutations: true });
    expect(shadow('d').isActionEnabled('anything')).toBe(false);
  });

  it('setters return the handle, so calls chain', () => {
    const shadow = createShadowCrud();
    const h = shadow('a');
    expect(h.disableQueries().disableMutations().disableAction('find').disableActions(['update'])).toBe(h);
    expect(typeState(shadow('a'))).toMatchObject({ queries: false, mutations: false, off: ['find', 'update'] });
    const f = h.field('x');
    expect(f.disableOutput().disableInput()).toBe(f);
    expect(f.disableFilters()).toBe(f);
    expect(f.disable()).toBe(f);
  });
});

describe('shadowCRUD(uid).field(name)', () => {
  it('each setter turns only its part off; the field stays enabled', () => {
    const shadow = createShadowCrud();
    const h = shadow('api::article.article');
    h.field('a').disableOutput();
    h.field('b').disableInput();
    h.field('c').disableFilters();
    expect(fieldState(h.field('a'))).toEqual({ ...FRESH_FIELD, output: false });
    expect(fieldState(h.field('b'))).toEqual({ ...FRESH_FIELD, input: false });
    expect(fieldState(h.field('c'))).toEqual({ ...FRESH_FIELD, filters: false, filtersStrapi: false });
    expect(fieldState(h.field('d'))).toEqual(FRESH_FIELD);
    expect(typeState(h)).toEqual(FRESH_TYPE);
  });

  it('disable() turns off all three and the field', () => {
    const shadow = createShadowCrud();
    shadow('shared.seo').field('metaTitle').disable();
    expect(fieldState(shadow('shared.seo').field('metaTitle'))).toEqual({
      enabled: false,
      disabled: true,
      input: false,
      output: false,
      filters: false,
      filtersStrapi: false,
    });
    // kept per uid: the same name elsewhere is untouched
    expect(fieldState(shadow('api::article.article').field('metaTitle'))).toEqual(FRESH_FIELD);
  });

  it('two managers share nothing', () => {
    const one = createShadowCrud();
    const two = createShadowCrud();
    one('a').disable();
    expect(two('a').isEnabled()).toBe(true);
  });
});
