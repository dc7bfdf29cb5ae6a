import { describe, expect, it } from 'vitest';
import {
  parsePermissionsTree,
  parseRoleBody,
  roleTypeOf,
  unknownActions,
} from '../../../../plugins/users-permissions/roles-input.ts';
import { fromPermissionsTree, splitAction, toPermissionsTree } from '../../../../plugins/users-permissions/roles.ts';
import type { FieldIssue } from '../../../../core/errors.ts';
import { errorOf } from '../../../helpers/errors.ts';

describe('roleTypeOf', () => {
  it('lowercases the name, drops accents and joins everything else with single dashes', () => {
    expect(roleTypeOf('Editor')).toBe('editor');
    expect(roleTypeOf('Content Editors')).toBe('content-editors');
    expect(roleTypeOf('  Révision & QA!  ')).toBe('revision-qa');
    expect(roleTypeOf('2024 staff')).toBe('2024-staff');
    expect(roleTypeOf('!!!')).toBe('');
  });
});

describe('permissions trees', () => {
  it('round-trips: every known action shown, the granted ones enabled', () => {
    const known = ['api::tag.tag.find', 'api::tag.tag.create', 'plugin::upload.content-api.find'];
    const tree = toPermissionsTree(known, new Set(['api::tag.tag.find']));
    expect(tree).toEqual({
      'api::tag': {
        controllers: { tag: { create: { enabled: false, policy: '' }, find: { enabled: true, policy: '' } } },
      },
      'plugin::upload': { controllers: { 'content-api': { find: { enabled: false, policy: '' } } } },
    });
    expect(fromPermissionsTree(tree)).toEqual(['api::tag.tag.find']);
    const issues: FieldIssue[] = [];
    expect(parsePermissionsTree(tree, issues)).toEqual(['api::tag.tag.find']);
    expect(issues).toEqual([]);
  });

  it('splits action uids into type, controller and action', () => {
    expect(splitAction('plugin::users-permissions.role.createRole')).toEqual([
      'plugin::users-permissions',
      'role',
      'createRole',
    ]);
    expect(splitAction('api::article.article')).toBeNull();
    expect(splitAction('article.find')).toBeNull();
  });

  it('reports every malformed part of a tree with its path', () => {
    const issues: FieldIssue[] = [];
    const enabled = parsePermissionsTree(
      {
        'api::a': {
          controllers: {
            a: {
              find: { enabled: true },
              create: true,
              update: { enabled: 'yes' },
              delete: { enabled: false, policy: 3 },
            },
          },
        },
        'api::b': {},
        'api::c': { controllers: { c: [] } },
      },
      issues,
    );
    expect(enabled).toEqual(['api::a.a.find']);
    expect(issues.map((i) => i.path.join('.'))).toEqual([
      'permissions.api::a.controllers.a.create',
      'permissions.api::a.controllers.a.update',
      'permissions.api::a.controllers.a.delete',
      'permissions.api::b.controllers',
      'permissions.api::c.controllers.c',
    ]);
    const none: FieldIssue[] = [];
    parsePermissionsTree('all', none);
    expect(none[0].path).toEqual(['permissions']);
  });

  it('names the granted actions that do not exist', () => {
    const allowed = new Set(['api::tag.tag.find']);
    expect(unknownActions(['api::tag.tag.find', 'api::x.x.y', 'api::x.x.y', 'weird'], allowed)).toEqual([
      'api::x.x.y',
      'weird',
    ]);
    expect(unknownActions([], allowed)).toEqual([]);
  });
});

describe('parseRoleBody', () => {
  it('takes name, description, type and the enabled actions, ignoring other keys', () => {
    const tree = { 'api::tag': { controllers: { tag: { find: { enabled: true, policy: '' } } } } };
    expect(parseRoleBody({ name: ' Editors ', description: 'd', permissions: tree, users: [] }, 'create')).toEqual({
      name: 'Editors',
      description: 'd',
      type: 'editors',
      permissions: ['api::tag.tag.find'],
    });
    expect(parseRoleBody({ name: 'Editors', type: 'ed_1' }, 'create')).toEqual({ name: 'Editors', type: 'ed_1' });
    // a role's type never changes
    expect(parseRoleBody({ type: 'other', description: null }, 'update')).toEqual({ description: null });
    expect(parseRoleBody({}, 'update')).toEqual({});
  });

  it('refuses a missing name on create, wrong types and a body that is not an object, listing every problem', () => {
    expect(errorOf(() => parseRoleBody({}, 'create')).details.errors).toMatchObject([{ path: ['name'] }]);
    const many = errorOf(() => parseRoleBody({ name: 1, description: 2, type: 'Bad Type', permissions: [] }, 'create'));
    expect(many.name).toBe('ValidationError');
    expect((many.details.errors as FieldIssue[]).map((i) => i.path[0])).toEqual([
      'name',
      'description',
      'type',
      'permissions',
    ]);
    expect(errorOf(() => parseRoleBody({ name: '***' }, 'create')).details.errors).toMatchObject([{ path: ['name'] }]);
    expect(errorOf(() => parseRoleBody([], 'update'))).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(errorOf(() => parseRoleBody({ name: '' }, 'update')).details.errors).toMatchObject([{ path: ['name'] }]);
  });
});
