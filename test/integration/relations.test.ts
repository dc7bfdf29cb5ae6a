/**
 * Relations through the REST API: every relation kind, every body form of Strapi 5
 * (documentId, array shorthand, set / connect / disconnect, positions, null), inverse sides
 * (read and written), exclusivity, bad ids, deletes, relations in components and dynamic
 * zones, and the fixed statement cost of populate.
 *
 * Storage facts checked on rows: the owning side keeps documentIds in `data` (a string for
 * to-one, an ordered array for to-many); the inverse side stores nothing (the order of a to-many
 * one is each owner's rank, kept on the owner: core/documents/inverse-order.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { BLOG, ROOT, startApp } from '../helpers/app.ts';

const FIXTURE = path.join(ROOT, 'test/fixtures/relations');

/** A documentId that looks real but names nothing. */
const MISSING = 'zzzzzzzzzzzzzzzzzzzzzzzz';

type Doc = Record<string, any>;

/** Request helpers bound to the app of one describe block. */
function client(app: () => TestApp) {
  const h = {
    async create(plural: string, data: Doc, query = ''): Promise<Doc> {
      const res = await app().request('POST', `/api/${plural}${query}`, { data });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    },
    put(plural: string, documentId: string, data: unknown, query = ''): Promise<TestResponse> {
      return app().request('PUT', `/api/${plural}/${documentId}${query}`, { data });
    },
    async update(plural: string, documentId: string, data: unknown, query = ''): Promise<Doc> {
      const res = await h.put(plural, documentId, data, query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    },
    async read(plural: string, documentId: string, query = ''): Promise<Doc> {
      const res = await app().request('GET', `/api/${plural}/${documentId}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    },
    async remove(plural: string, documentId: string): Promise<void> {
      const res = await app().request('DELETE', `/api/${plural}/${documentId}`);
      expect(res.status).toBe(204);
    },
    /** The stored `data` column of a document. */
    async stored(table: string, documentId: string): Promise<Doc> {
      const row = await app().sql(table).first('data').where('document_id', documentId);
      expect(row, `${table} row ${documentId}`).toBeDefined();
      return row.data;
    },
    /** Every row of the tables, to prove that a refused request wrote nothing. */
    async snapshot(...tables: string[]): Promise<Record<string, unknown[]>> {
      const out: Record<string, unknown[]> = {};
      for (const table of tables)
        out[table] = await app().sql(table).select('id', 'document_id', 'data', 'updated_at').orderBy('id');
      return out;
    },
  };
  return h;
}

const ids = (docs: Doc[]): string[] => docs.map((d) => d.documentId);

/** A refused write: 400 ValidationError in Strapi's envelope. */
function expectValidationError(res: TestResponse, message?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.data).toBeNull();
  expect(res.body.error.name).toBe('ValidationError');
  expect(res.body.error.status).toBe(400);
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else if (message) expect(res.body.error.message).toMatch(message);
}

describe('relations (fixture app with every relation kind)', () => {
  let t: TestApp;
  const api = client(() => t);
  beforeAll(async () => {
    // statements are counted: no answer from the response cache
    t = await startApp({ appDir: FIXTURE, env: { RESPONSE_CACHE: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  const uniq = (prefix: string): string => `${prefix}-${++counter}`;
  const books = async (n: number): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await api.create('books', { title: uniq('book') })).documentId);
    return out;
  };
  const people = async (n: number, data: Doc = {}): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await api.create('people', { name: uniq('person'), ...data })).documentId);
    return out;
  };
  const many = async (plural: string, field: string, n: number): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await api.create(plural, { [field]: uniq(plural) })).documentId);
    return out;
  };

  describe('oneToOne person.passport (owner) / passport.holder (mappedBy)', () => {
    it('sets by documentId, stores the id on the owner, and populates both sides with full documents', async () => {
      const [x] = await many('passports', 'number', 1);
      const created = await api.create('people', { name: uniq('person'), passport: x }, '?populate=passport');
      expect(created.passport).toEqual(await api.read('passports', x));
      expect((await api.stored('people', created.documentId)).passport).toBe(x);
      // the inverse side stores nothing
      expect(await api.stored('passports', x)).not.toHaveProperty('holder');

      const holderSide = await api.read('passports', x, '?populate=*');
      expect(holderSide).toEqual({
        ...(await api.read('passports', x)),
        holder: await api.read('people', created.documentId),
      });
    });

    it('is null when populated and unset, on both sides', async () => {
      const [p] = await people(1);
      const [x] = await many('passports', 'number', 1);
      expect((await api.read('people', p, '?populate[0]=passport')).passport).toBeNull();
      expect((await api.read('passports', x, '?populate[0]=holder')).holder).toBeNull();
    });

    it('takes the last item when several are given, in every form', async () => {
      const [x1, x2, x3] = await many('passports', 'number', 3);
      const [p] = await people(1);
      expect((await api.update('people', p, { passport: [x1, x2] }, '?populate=passport')).passport.documentId).toBe(
        x2,
      );
      expect(
        (await api.update('people', p, { passport: { set: [x3, x1] } }, '?populate=passport')).passport.documentId,
      ).toBe(x1);
      expect(
        (await api.update('people', p, { passport: { connect: [x2, x3] } }, '?populate=passport')).passport.documentId,
      ).toBe(x3);
      // the current target listed last still wins over a new one listed before it
      expect(
        (await api.update('people', p, { passport: { connect: [x1, x3] } }, '?populate=passport')).passport.documentId,
      ).toBe(x3);
      expect((await api.stored('people', p)).passport).toBe(x3);
      // positions mean nothing on a to-one relation: the last item still wins
      const res = await api.update(
        'people',
        p,
        { passport: { connect: [x2, { documentId: x3, position: { before: x2 } }] } },
        '?populate=passport',
      );
      expect(res.passport.documentId).toBe(x3);
    });

    it('connect replaces, disconnect of the current target clears, of another keeps, null clears', async () => {
      const [x1, x2] = await many('passports', 'number', 2);
      const [p] = await people(1, {});
      await api.update('people', p, { passport: { connect: [x1] } });
      expect((await api.stored('people', p)).passport).toBe(x1);
      await api.update('people', p, { passport: { connect: [x2] } });
      expect((await api.stored('people', p)).passport).toBe(x2);
      await api.update('people', p, { passport: { disconnect: [x1] } });
      expect((await api.stored('people', p)).passport).toBe(x2);
      await api.update('people', p, { passport: { disconnect: [{ documentId: x2 }] } });
      expect((await api.stored('people', p)).passport).toBeNull();
      await api.update('people', p, { passport: { documentId: x1 } });
      expect((await api.stored('people', p)).passport).toBe(x1);
      const cleared = await api.update('people', p, { passport: null }, '?populate=passport');
      expect(cleared.passport).toBeNull();
      expect((await api.stored('people', p)).passport).toBeNull();
    });

    it('leaves the relation alone when the body does not mention it or sends an empty connect', async () => {
      const [x] = await many('passports', 'number', 1);
      const [p] = await people(1, { passport: x });
      await api.update('people', p, { name: 'renamed' });
      await api.update('people', p, { passport: { connect: [] } });
      await api.update('people', p, { passport: {} });
      expect(await api.stored('people', p)).toMatchObject({ name: 'renamed', passport: x });
    });

    it('is exclusive from the owner side: giving a passport to someone takes it from its holder', async () => {
      const [x] = await many('passports', 'number', 1);
      const [p1] = await people(1, { passport: x });
      const p2 = await api.create('people', { name: uniq('person'), passport: x }, '?populate=passport');
      expect(p2.passport.documentId).toBe(x);
      expect((await api.stored('people', p1)).passport).toBeNull();
      expect((await api.read('people', p1, '?populate=passport')).passport).toBeNull();
      expect((await api.read('passports', x, '?populate=holder')).holder.documentId).toBe(p2.documentId);
    });

    it('is writable and exclusive from the inverse side', async () => {
      const [x, y] = await many('passports', 'number', 2);
      const [p1] = await people(1, { passport: x });
      const [p2] = await people(1, { passport: y });

      // x moves to p2: p1 loses it, and p2's former passport y is left without a holder
      const res = await api.update('passports', x, { holder: p2 }, '?populate=holder');
      expect(res.holder).toEqual(await api.read('people', p2));
      expect((await api.stored('people', p1)).passport).toBeNull();
      expect((await api.stored('people', p2)).passport).toBe(x);
      expect((await api.read('passports', y, '?populate=holder')).holder).toBeNull();

      await api.update('passports', x, { holder: { connect: [p1] } });
      expect((await api.stored('people', p1)).passport).toBe(x);
      expect((await api.stored('people', p2)).passport).toBeNull();

      // the last of several holders wins, even when the current one is listed first
      await api.update('passports', x, { holder: { connect: [p1, p2] } });
      expect((await api.stored('people', p2)).passport).toBe(x);
      expect((await api.stored('people', p1)).passport).toBeNull();
      await api.update('passports', x, { holder: { connect: [p1, p2] } });
      expect((await api.stored('people', p2)).passport).toBe(x);
      await api.update('passports', x, { holder: { connect: [p2, p1] } });
      expect((await api.stored('people', p1)).passport).toBe(x);
      expect((await api.stored('people', p2)).passport).toBeNull();

      await api.update('passports', x, { holder: { disconnect: [p2] } });
      expect((await api.stored('people', p1)).passport).toBe(x);
      await api.update('passports', x, { holder: { disconnect: [p1] } });
      expect((await api.stored('people', p1)).passport).toBeNull();

      await api.update('passports', x, { holder: [p2] });
      expect((await api.stored('people', p2)).passport).toBe(x);
      await api.update('passports', x, { holder: null });
      expect((await api.stored('people', p2)).passport).toBeNull();
      expect((await api.read('passports', x, '?populate=holder')).holder).toBeNull();
    });

    it('can be set from the inverse side when the passport is created', async () => {
      const [p] = await people(1);
      const x = await api.create('passports', { number: uniq('passport'), holder: p }, '?populate=holder');
      expect(x.holder).toEqual(await api.read('people', p));
      expect((await api.stored('people', p)).passport).toBe(x.documentId);
    });
  });

  describe('oneToMany team.players (owner) / manyToOne player.team (mappedBy)', () => {
    it('sets with the array shorthand, keeps the order, and populates both sides', async () => {
      const [a, b, c] = await many('players', 'name', 3);
      const team = await api.create('teams', { name: uniq('team'), players: [c, a, b] }, '?populate[0]=players');
      expect(team.players).toEqual([
        await api.read('players', c),
        await api.read('players', a),
        await api.read('players', b),
      ]);
      expect((await api.stored('teams', team.documentId)).players).toEqual([c, a, b]);
      expect(ids((await api.read('teams', team.documentId, '?populate=players')).players)).toEqual([c, a, b]);
      const plainTeam = await api.read('teams', team.documentId);
      for (const p of [a, b, c]) expect((await api.read('players', p, '?populate=team')).team).toEqual(plainTeam);
    });

    it('stores an empty array when created without players, and populates []', async () => {
      const team = await api.create('teams', { name: uniq('team') }, '?populate=players');
      expect(team.players).toEqual([]);
      expect((await api.stored('teams', team.documentId)).players).toEqual([]);
      const [p] = await many('players', 'name', 1);
      expect((await api.read('players', p, '?populate=team')).team).toBeNull();
    });

    it('set replaces, connect appends, disconnect removes, null clears', async () => {
      const [a, b, c, d] = await many('players', 'name', 4);
      const team = (await api.create('teams', { name: uniq('team'), players: [a, b] })).documentId;
      await api.update('teams', team, { players: { set: [b, c] } });
      expect((await api.stored('teams', team)).players).toEqual([b, c]);
      await api.update('teams', team, { players: { connect: [d, { documentId: a }] } });
      expect((await api.stored('teams', team)).players).toEqual([b, c, d, a]);
      await api.update('teams', team, { players: { disconnect: [c, { documentId: a }] } });
      expect((await api.stored('teams', team)).players).toEqual([b, d]);
      expect((await api.read('players', c, '?populate=team')).team).toBeNull();
      const cleared = await api.update('teams', team, { players: null }, '?populate=players');
      expect(cleared.players).toEqual([]);
      expect((await api.stored('teams', team)).players).toEqual([]);
      expect((await api.read('players', b, '?populate=team')).team).toBeNull();
    });

    it('is exclusive from the owner side: a player connected to another team leaves its old one', async () => {
      const [a, b] = await many('players', 'name', 2);
      const t1 = (await api.create('teams', { name: uniq('team'), players: [a, b] })).documentId;
      const t2 = (await api.create('teams', { name: uniq('team'), players: { connect: [a] } })).documentId;
      expect((await api.stored('teams', t1)).players).toEqual([b]);
      expect((await api.stored('teams', t2)).players).toEqual([a]);
      expect(ids((await api.read('teams', t1, '?populate=players')).players)).toEqual([b]);
      expect((await api.read('players', a, '?populate=team')).team.documentId).toBe(t2);
      // the same through set
      await api.update('teams', t1, { players: [a, b] });
      expect((await api.stored('teams', t2)).players).toEqual([]);
    });

    it('is writable from the player side, moving the player between teams', async () => {
      const [a, b] = await many('players', 'name', 2);
      const t1 = (await api.create('teams', { name: uniq('team'), players: [a, b] })).documentId;
      const t2 = (await api.create('teams', { name: uniq('team') })).documentId;

      const moved = await api.update('players', a, { team: t2 }, '?populate=team');
      expect(moved.team).toEqual(await api.read('teams', t2));
      expect((await api.stored('teams', t1)).players).toEqual([b]);
      expect((await api.stored('teams', t2)).players).toEqual([a]);

      await api.update('players', a, { team: { connect: [t1] } });
      expect((await api.stored('teams', t1)).players).toEqual([b, a]);
      expect((await api.stored('teams', t2)).players).toEqual([]);

      // the last item wins, even when it is the current team listed first
      await api.update('players', a, { team: { connect: [t1, t2] } });
      expect((await api.stored('teams', t2)).players).toEqual([a]);
      await api.update('players', a, { team: { connect: [t2, t1] } });
      expect((await api.stored('teams', t1)).players).toEqual([b, a]);
      expect((await api.stored('teams', t2)).players).toEqual([]);
      await api.update('players', a, { team: { connect: [t2, t1] } });
      expect((await api.stored('teams', t1)).players).toEqual([b, a]);
      expect((await api.stored('teams', t2)).players).toEqual([]);

      await api.update('players', a, { team: { disconnect: [t2] } });
      expect((await api.stored('teams', t1)).players).toEqual([b, a]);
      await api.update('players', a, { team: { disconnect: [t1] } });
      expect((await api.stored('teams', t1)).players).toEqual([b]);
      expect((await api.read('players', a, '?populate=team')).team).toBeNull();

      const created = await api.create('players', { name: uniq('player'), team: t2 }, '?populate=team');
      expect(created.team.documentId).toBe(t2);
      expect((await api.stored('teams', t2)).players).toEqual([created.documentId]);
      await api.update('players', b, { team: null });
      expect((await api.stored('teams', t1)).players).toEqual([]);
    });
  });

  describe('manyToOne book.library (owner) / oneToMany library.books (mappedBy)', () => {
    it('sets by documentId, stores a string, and lists the books on the library side', async () => {
      const [l1] = await many('libraries', 'name', 1);
      const b1 = await api.create('books', { title: uniq('book'), library: l1 }, '?populate=library');
      const b2 = await api.create('books', { title: uniq('book'), library: { connect: [l1] } });
      expect(b1.library).toEqual(await api.read('libraries', l1));
      expect((await api.stored('books', b1.documentId)).library).toBe(l1);
      expect((await api.stored('books', b2.documentId)).library).toBe(l1);
      const lib = await api.read('libraries', l1, '?populate=books');
      expect(lib.books).toEqual([await api.read('books', b1.documentId), await api.read('books', b2.documentId)]);
    });

    it('connect replaces, disconnect clears, null clears, and the last item wins', async () => {
      const [l1, l2] = await many('libraries', 'name', 2);
      const [b] = await books(1);
      await api.update('books', b, { library: { connect: [l1, l2] } });
      expect((await api.stored('books', b)).library).toBe(l2);
      await api.update('books', b, { library: [l2, l1] });
      expect((await api.stored('books', b)).library).toBe(l1);
      await api.update('books', b, { library: { connect: [l1, l2], disconnect: [l1] } });
      expect((await api.stored('books', b)).library).toBe(l2);
      await api.update('books', b, { library: { disconnect: [l2] } });
      expect((await api.stored('books', b)).library).toBeNull();
      await api.update('books', b, { library: l1 });
      expect(ids((await api.read('libraries', l1, '?populate=books')).books)).toEqual([b]);
      await api.update('books', b, { library: null });
      expect((await api.stored('books', b)).library).toBeNull();
      expect((await api.read('libraries', l1, '?populate=books')).books).toEqual([]);
    });

    it('is writable from the library side: connected books are taken from their previous library', async () => {
      const [l1, l2] = await many('libraries', 'name', 2);
      const [b1, b2, b3] = await books(3);
      await api.update('books', b1, { library: l1 });
      await api.update('books', b2, { library: l1 });

      const res = await api.update('libraries', l2, { books: [b1, b3] }, '?populate=books');
      expect(ids(res.books).sort()).toEqual([b1, b3].sort());
      expect((await api.stored('books', b1)).library).toBe(l2);
      expect((await api.stored('books', b3)).library).toBe(l2);
      expect((await api.stored('books', b2)).library).toBe(l1);
      expect(ids((await api.read('libraries', l1, '?populate=books')).books)).toEqual([b2]);

      await api.update('libraries', l2, { books: { connect: [b2], disconnect: [b1] } });
      expect((await api.stored('books', b1)).library).toBeNull();
      expect((await api.stored('books', b2)).library).toBe(l2);
      expect((await api.read('libraries', l1, '?populate=books')).books).toEqual([]);

      await api.update('libraries', l2, { books: { set: [b1] } });
      expect((await api.stored('books', b1)).library).toBe(l2);
      expect((await api.stored('books', b2)).library).toBeNull();
      expect((await api.stored('books', b3)).library).toBeNull();
      await api.update('libraries', l2, { books: null });
      expect((await api.stored('books', b1)).library).toBeNull();
    });
  });

  describe('manyToMany student.courses (owner) / course.students (mappedBy)', () => {
    it('sets, keeps the order, and populates both sides', async () => {
      const [c1, c2, c3] = await many('courses', 'title', 3);
      const s1 = await api.create('students', { name: uniq('student'), courses: [c3, c1] }, '?populate=courses');
      const s2 = await api.create('students', { name: uniq('student'), courses: { set: [c1, c2] } });
      expect(s1.courses).toEqual([await api.read('courses', c3), await api.read('courses', c1)]);
      expect((await api.stored('students', s1.documentId)).courses).toEqual([c3, c1]);
      expect((await api.stored('students', s2.documentId)).courses).toEqual([c1, c2]);
      const course = await api.read('courses', c1, '?populate=students');
      expect(course.students).toEqual([
        await api.read('students', s1.documentId),
        await api.read('students', s2.documentId),
      ]);
      expect(ids((await api.read('courses', c2, '?populate=students')).students)).toEqual([s2.documentId]);
    });

    it('connect, disconnect and null on the owner side', async () => {
      const [c1, c2, c3] = await many('courses', 'title', 3);
      const [s] = await many('students', 'name', 1);
      await api.update('students', s, { courses: { connect: [c2, c1] } });
      expect((await api.stored('students', s)).courses).toEqual([c2, c1]);
      await api.update('students', s, { courses: { connect: [c3], disconnect: [c2] } });
      expect((await api.stored('students', s)).courses).toEqual([c1, c3]);
      expect((await api.read('courses', c2, '?populate=students')).students).toEqual([]);
      await api.update('students', s, { courses: null });
      expect((await api.stored('students', s)).courses).toEqual([]);
    });

    it('is writable from the course side, appending to and removing from each student', async () => {
      const [c1, c2] = await many('courses', 'title', 2);
      const [s1, s2, s3] = await many('students', 'name', 3);
      await api.update('students', s1, { courses: [c2] });

      const res = await api.update('courses', c1, { students: [s1, s2] }, '?populate=students');
      expect(ids(res.students)).toEqual([s1, s2]);
      expect((await api.stored('students', s1)).courses).toEqual([c2, c1]);
      expect((await api.stored('students', s2)).courses).toEqual([c1]);

      await api.update('courses', c1, { students: { connect: [s3], disconnect: [s1] } });
      expect((await api.stored('students', s1)).courses).toEqual([c2]);
      expect((await api.stored('students', s3)).courses).toEqual([c1]);
      expect(ids((await api.read('courses', c1, '?populate=students')).students)).toEqual([s2, s3]);

      // connecting a student who already has the course does not add it twice
      await api.update('courses', c1, { students: { connect: [s2] } });
      expect((await api.stored('students', s2)).courses).toEqual([c1]);

      await api.update('courses', c1, { students: { set: [s1] } });
      expect((await api.stored('students', s1)).courses).toEqual([c2, c1]);
      expect((await api.stored('students', s2)).courses).toEqual([]);
      expect((await api.stored('students', s3)).courses).toEqual([]);
      await api.update('courses', c1, { students: null });
      expect((await api.stored('students', s1)).courses).toEqual([c2]);
    });

    it('refuses an anchor that is not connected on the inverse side too, writing nothing', async () => {
      const [c] = await many('courses', 'title', 1);
      const [s1, s2, s3] = await many('students', 'name', 3);
      await api.update('courses', c, { students: [s1] });
      const before = await api.snapshot('students', 'courses');
      const res = await api.put('courses', c, {
        students: { connect: [{ documentId: s2, position: { before: s3 } }] },
      });
      expectValidationError(res, `students cannot place ${s2} relative to ${s3}, which is not connected`);
      expect(res.body.error.details.errors[0].path).toEqual(['students']);
      expect(await api.snapshot('students', 'courses')).toEqual(before);
    });
  });

  // The orders below are what Strapi 5.54 answered to the same requests (course.students and
  // library.books in the reference app, with the schemas of this fixture).
  describe('inverse order (Strapi 5.54)', () => {
    const order = async (plural: string, documentId: string, attr: string): Promise<string[]> =>
      ids((await api.read(plural, documentId, `?populate=${attr}`))[attr]);

    it('puts owners connecting from the owning side last; one that holds it already keeps its place', async () => {
      const [c] = await many('courses', 'title', 1);
      const [s1, s2, s3] = await many('students', 'name', 3);
      for (const s of [s1, s2, s3]) await api.update('students', s, { courses: { connect: [c] } });
      expect(await order('courses', c, 'students')).toEqual([s1, s2, s3]);
      await api.update('students', s1, { courses: { disconnect: [c] } });
      await api.update('students', s1, { courses: { connect: [c] } });
      expect(await order('courses', c, 'students')).toEqual([s2, s3, s1]);
      await api.update('students', s2, { courses: [c] });
      await api.update('students', s3, { courses: { connect: [c] } });
      await api.update('students', s3, { name: uniq('renamed') });
      expect(await order('courses', c, 'students')).toEqual([s2, s3, s1]);
      // the order is each owner's rank in the course's list, on the owner's row; the course stores nothing
      const rank = async (s: string): Promise<number> => (await api.stored('students', s)).$order.courses[c];
      expect(Object.keys((await api.stored('students', s1)).$order)).toEqual(['courses']);
      // s1 reconnected last; s2 kept its first rank through the `set`, s3 its own through the rename
      expect(await rank(s2)).toBeLessThan(await rank(s3));
      expect(await rank(s3)).toBeLessThan(await rank(s1));
      expect(await api.stored('courses', c)).not.toHaveProperty('students');
    });

    it("ranks an owner appended to a list without reading the list's owners: one rank from a sequence", async () => {
      const [c, c2] = await many('courses', 'title', 2);
      const owners = await many('students', 'name', 6);
      for (const s of owners) await api.update('students', s, { courses: [c, c2] });
      t.queries.length = 0;
      const s = await api.create('students', { name: uniq('student'), courses: [c, c2] });
      // the largest rank among a target's owners + 1 read every owner holding the target (an aggregate)
      expect(t.queries.filter((q) => /\bmax\s*\(/i.test(q))).toEqual([]);
      expect(t.queries.filter((q) => q.includes("nextval('vellum_relation_ranks')"))).toHaveLength(1);
      expect(await order('courses', c, 'students')).toEqual([...owners, s.documentId]);
      expect(await order('courses', c2, 'students')).toEqual([...owners, s.documentId]);
    });

    it('connects with positions through the inverse side: {start} then {after} puts those two first', async () => {
      const [c] = await many('courses', 'title', 1);
      const [s1, s2, s3, s4, s5, s6, s7] = await many('students', 'name', 7);
      for (const s of [s2, s3, s1]) await api.update('students', s, { courses: { connect: [c] } });
      const put = (students: unknown) => api.update('courses', c, { students });
      await put({
        connect: [
          { documentId: s4, position: { start: true } },
          { documentId: s5, position: { after: s4 } },
        ],
      });
      expect(await order('courses', c, 'students')).toEqual([s4, s5, s2, s3, s1]);
      await put({ connect: [{ documentId: s1, position: { before: s4 } }] });
      expect(await order('courses', c, 'students')).toEqual([s1, s4, s5, s2, s3]);
      await put({ connect: [{ documentId: s6, position: { end: true } }, s2] });
      expect(await order('courses', c, 'students')).toEqual([s1, s4, s5, s3, s6, s2]);
      await put({ connect: [{ documentId: s3, position: { after: s1 } }] });
      expect(await order('courses', c, 'students')).toEqual([s1, s3, s4, s5, s6, s2]);
      // an owner connecting afterwards goes last, after the order the inverse side set
      await api.update('students', s7, { courses: [c] });
      expect(await order('courses', c, 'students')).toEqual([s1, s3, s4, s5, s6, s2, s7]);
      await put({ disconnect: [s5] });
      expect(await order('courses', c, 'students')).toEqual([s1, s3, s4, s6, s2, s7]);
      // the students' own lists only gained the course at their end
      expect((await api.stored('students', s4)).courses).toEqual([c]);
    });

    it('orders a set through the inverse side as given, on update and on create', async () => {
      const [c] = await many('courses', 'title', 1);
      const [s1, s2, s3, s5, s6] = await many('students', 'name', 5);
      await api.update('courses', c, { students: [s1, s5] });
      await api.update('courses', c, { students: [s3, s1, s5] });
      expect(await order('courses', c, 'students')).toEqual([s3, s1, s5]);
      await api.update('courses', c, { students: { set: [s5, s6, s3] } });
      expect(await order('courses', c, 'students')).toEqual([s5, s6, s3]);
      const c2 = await api.create('courses', { title: uniq('course'), students: [s2, s1, s3] }, '?populate=students');
      expect(ids(c2.students)).toEqual([s2, s1, s3]);
      const connect = [s2, { documentId: s1, position: { start: true } }];
      const c3 = await api.create('courses', { title: uniq('course'), students: { connect } });
      expect(await order('courses', c3.documentId, 'students')).toEqual([s1, s2]);
      await api.remove('students', s1);
      expect(await order('courses', c3.documentId, 'students')).toEqual([s2]);
      // a deleted course leaves the ranks its owners kept for it
      const ranks = { [c2.documentId]: 1, [c3.documentId]: 2 };
      expect((await api.stored('students', s2)).$order).toEqual({ courses: ranks });
      await api.remove('courses', c3.documentId);
      expect((await api.stored('students', s2)).$order).toEqual({ courses: { [c2.documentId]: 1 } });
    });

    it('keeps the order of a oneToMany inverse side (library.books) the same way', async () => {
      const [l, l2] = await many('libraries', 'name', 2);
      const [b1, b2, b3, b4, b5] = await books(5);
      for (const b of [b1, b2, b3]) await api.update('books', b, { library: l });
      expect(await order('libraries', l, 'books')).toEqual([b1, b2, b3]);
      const connect = [
        { documentId: b4, position: { start: true } },
        { documentId: b5, position: { after: b4 } },
      ];
      await api.update('libraries', l, { books: { connect } });
      expect(await order('libraries', l, 'books')).toEqual([b4, b5, b1, b2, b3]);
      await api.update('books', b1, { library: l });
      await api.update('books', b2, { library: { connect: [l] } });
      expect(await order('libraries', l, 'books')).toEqual([b4, b5, b1, b2, b3]);
      await api.update('books', b4, { library: l2 });
      await api.update('books', b4, { library: l });
      expect(await order('libraries', l, 'books')).toEqual([b5, b1, b2, b3, b4]);
    });

    it('reads the stored order in list reads (one statement) as in single reads', async () => {
      const [c1, c2] = await many('courses', 'title', 2);
      const [s1, s2, s3] = await many('students', 'name', 3);
      for (const s of [s1, s2, s3]) await api.update('students', s, { courses: [c1, c2] });
      await api.update('courses', c1, { students: { connect: [{ documentId: s3, position: { start: true } }] } });
      await api.update('courses', c2, { students: { connect: [{ documentId: s1, position: { after: s2 } }] } });
      const list = `/api/courses?filters[documentId][$in][0]=${c1}&filters[documentId][$in][1]=${c2}&sort=id`;
      await t.request('GET', list);
      t.queries.length = 0;
      await t.request('GET', list);
      const bare = t.queries.length;
      t.queries.length = 0;
      const res = await t.request('GET', `${list}&populate=students`);
      expect(res.status).toBe(200);
      expect(t.queries).toHaveLength(bare); // populating costs no statement of its own
      expect(res.body.data.map((c: Doc) => ids(c.students))).toEqual([
        [s3, s1, s2],
        [s2, s1, s3],
      ]);
      const counted = await t.request('GET', `/api/courses/${c1}?populate[students][count]=true`);
      expect(counted.body.data.students).toEqual({ count: 3 });
    });
  });

  describe('oneWay person.bestFriend and manyWay person.favoriteBooks', () => {
    it('oneWay: sets, populates, takes the last item, clears with null', async () => {
      const [f1, f2] = await people(2);
      const p = await api.create('people', { name: uniq('person'), bestFriend: f1 }, '?populate=bestFriend');
      expect(p.bestFriend).toEqual(await api.read('people', f1));
      expect((await api.stored('people', p.documentId)).bestFriend).toBe(f1);
      await api.update('people', p.documentId, { bestFriend: { connect: [f2] } });
      expect((await api.stored('people', p.documentId)).bestFriend).toBe(f2);
      await api.update('people', p.documentId, { bestFriend: [f1, f2] });
      expect((await api.stored('people', p.documentId)).bestFriend).toBe(f2);
      await api.update('people', p.documentId, { bestFriend: { disconnect: [f2] } });
      expect((await api.stored('people', p.documentId)).bestFriend).toBeNull();
      // a document may point at itself
      await api.update('people', p.documentId, { bestFriend: p.documentId });
      const self = await api.read('people', p.documentId, '?populate=bestFriend');
      expect(self.bestFriend.documentId).toBe(p.documentId);
      await api.update('people', p.documentId, { bestFriend: null });
      expect((await api.read('people', p.documentId, '?populate=bestFriend')).bestFriend).toBeNull();
    });

    it('manyWay: set, connect, disconnect, null, and order on read', async () => {
      const [b1, b2, b3] = await books(3);
      const p = await api.create(
        'people',
        { name: uniq('person'), favoriteBooks: [b3, b1] },
        '?populate=favoriteBooks',
      );
      expect(p.favoriteBooks).toEqual([await api.read('books', b3), await api.read('books', b1)]);
      await api.update('people', p.documentId, { favoriteBooks: { connect: [b2] } });
      expect(ids((await api.read('people', p.documentId, '?populate[0]=favoriteBooks')).favoriteBooks)).toEqual([
        b3,
        b1,
        b2,
      ]);
      await api.update('people', p.documentId, { favoriteBooks: { disconnect: [b3] } });
      expect((await api.stored('people', p.documentId)).favoriteBooks).toEqual([b1, b2]);
      await api.update('people', p.documentId, { favoriteBooks: { set: [b2, b3, b1] } });
      expect((await api.stored('people', p.documentId)).favoriteBooks).toEqual([b2, b3, b1]);
      await api.update('people', p.documentId, { favoriteBooks: null });
      expect((await api.stored('people', p.documentId)).favoriteBooks).toEqual([]);
    });
  });

  describe('connect positions', () => {
    // start from [b0, b1, b2]; books b3 and b4 are not connected yet
    const cases: Array<[string, (b: string[]) => unknown[], number[]]> = [
      ['before an item', (b) => [{ documentId: b[3], position: { before: b[1] } }], [0, 3, 1, 2]],
      ['after an item', (b) => [{ documentId: b[3], position: { after: b[1] } }], [0, 1, 3, 2]],
      ['after the last item', (b) => [{ documentId: b[3], position: { after: b[2] } }], [0, 1, 2, 3]],
      ['before the first item', (b) => [{ documentId: b[3], position: { before: b[0] } }], [3, 0, 1, 2]],
      ['at the start', (b) => [{ documentId: b[3], position: { start: true } }], [3, 0, 1, 2]],
      ['at the end', (b) => [{ documentId: b[3], position: { end: true } }], [0, 1, 2, 3]],
      ['at the end by default', (b) => [b[3], { documentId: b[4] }], [0, 1, 2, 3, 4]],
      ['moving a connected item after another', (b) => [{ documentId: b[0], position: { after: b[2] } }], [1, 2, 0]],
      ['moving a connected item before another', (b) => [{ documentId: b[2], position: { before: b[1] } }], [0, 2, 1]],
      ['moving a connected item to the start', (b) => [{ documentId: b[2], position: { start: true } }], [2, 0, 1]],
      ['moving a connected item to the end', (b) => [{ documentId: b[0], position: { end: true } }], [1, 2, 0]],
      ['a connected item again, which moves it to the end as Strapi does', (b) => [b[0]], [1, 2, 0]],
      [
        'one after another, each relative to the list so far',
        (b) => [
          { documentId: b[3], position: { start: true } },
          { documentId: b[4], position: { after: b[3] } },
        ],
        [3, 4, 0, 1, 2],
      ],
      [
        'relative to an item connected later in the same request',
        (b) => [
          { documentId: b[3], position: { after: b[4] } },
          { documentId: b[4], position: { start: true } },
        ],
        [4, 3, 0, 1, 2],
      ],
    ];

    it.each(cases)('connects %s, stores and reads back that order (manyWay)', async (_name, connect, expected) => {
      const b = await books(5);
      const p = (await api.create('people', { name: uniq('person'), favoriteBooks: [b[0], b[1], b[2]] })).documentId;
      const res = await api.update('people', p, { favoriteBooks: { connect: connect(b) } }, '?populate=favoriteBooks');
      const want = expected.map((i) => b[i]);
      expect(ids(res.favoriteBooks)).toEqual(want);
      expect((await api.stored('people', p)).favoriteBooks).toEqual(want);
      expect(ids((await api.read('people', p, '?populate=favoriteBooks')).favoriteBooks)).toEqual(want);
    });

    it('applies disconnect before connect: an anchor disconnected in the same request is not connected', async () => {
      const b = await books(4);
      const p = (await api.create('people', { name: uniq('person'), favoriteBooks: [b[0], b[1], b[2]] })).documentId;
      await api.update('people', p, {
        favoriteBooks: { disconnect: [b[0]], connect: [{ documentId: b[3], position: { before: b[2] } }] },
      });
      expect((await api.stored('people', p)).favoriteBooks).toEqual([b[1], b[3], b[2]]);
      const res = await api.put('people', p, {
        favoriteBooks: { disconnect: [b[1]], connect: [{ documentId: b[0], position: { after: b[1] } }] },
      });
      expectValidationError(res, /not connected/);
      expect((await api.stored('people', p)).favoriteBooks).toEqual([b[1], b[3], b[2]]);
    });

    it('works on every to-many owner kind: oneToMany and manyToMany', async () => {
      const pl = await many('players', 'name', 3);
      const team = (await api.create('teams', { name: uniq('team'), players: [pl[0], pl[1]] })).documentId;
      await api.update('teams', team, { players: { connect: [{ documentId: pl[2], position: { before: pl[1] } }] } });
      expect(ids((await api.read('teams', team, '?populate=players')).players)).toEqual([pl[0], pl[2], pl[1]]);

      const cs = await many('courses', 'title', 3);
      const s = (await api.create('students', { name: uniq('student'), courses: [cs[0], cs[1]] })).documentId;
      await api.update('students', s, {
        courses: {
          connect: [
            { documentId: cs[2], position: { start: true } },
            { documentId: cs[0], position: { after: cs[1] } },
          ],
        },
      });
      expect(ids((await api.read('students', s, '?populate=courses')).courses)).toEqual([cs[2], cs[1], cs[0]]);
    });

    it('refuses an anchor that is not connected, and writes nothing', async () => {
      const b = await books(5);
      const p = (await api.create('people', { name: uniq('person'), favoriteBooks: [b[0], b[1]] })).documentId;
      const before = await api.snapshot('people');
      const res = await api.put('people', p, {
        name: 'changed',
        favoriteBooks: { connect: [{ documentId: b[2], position: { before: b[3] } }] },
      });
      expectValidationError(res, `favoriteBooks cannot place ${b[2]} relative to ${b[3]}, which is not connected`);
      expect(res.body.error.details.errors[0].path).toEqual(['favoriteBooks']);
      // an anchor that is a real document elsewhere, a missing one, and one on the create path
      expectValidationError(
        await api.put('people', p, {
          favoriteBooks: { connect: [{ documentId: b[2], position: { after: MISSING } }] },
        }),
        /not connected/,
      );
      const created = await t.request('POST', '/api/people', {
        data: { name: 'x', favoriteBooks: { connect: [{ documentId: b[2], position: { after: b[4] } }] } },
      });
      expectValidationError(created, /not connected/);
      expect(await api.snapshot('people')).toEqual(before);
    });

    it('refuses anchors that point at each other', async () => {
      const b = await books(4);
      const p = (await api.create('people', { name: uniq('person'), favoriteBooks: [b[0]] })).documentId;
      const res = await api.put('people', p, {
        favoriteBooks: {
          connect: [
            { documentId: b[2], position: { before: b[3] } },
            { documentId: b[3], position: { after: b[2] } },
          ],
        },
      });
      expectValidationError(res, /^favoriteBooks cannot place \w+ relative to \w+/);
      expect((await api.stored('people', p)).favoriteBooks).toEqual([b[0]]);
    });

    it('refuses malformed positions and positions outside connect', async () => {
      const b = await books(2);
      const p = (await api.create('people', { name: uniq('person'), favoriteBooks: [b[0]] })).documentId;
      const before = await api.snapshot('people');
      for (const favoriteBooks of [
        { connect: [{ documentId: b[1], position: 'start' }] },
        { connect: [{ documentId: b[1], position: { middle: true } }] },
        { connect: [{ documentId: b[1], position: { before: 3 } }] },
        { set: [{ documentId: b[1], position: { start: true } }] },
        [{ documentId: b[1], position: { start: true } }],
        { disconnect: [{ documentId: b[0], position: { start: true } }] },
      ]) {
        expectValidationError(await api.put('people', p, { favoriteBooks }));
      }
      expect(await api.snapshot('people')).toEqual(before);
    });
  });

  describe('invalid relation input', () => {
    it("refuses an unknown documentId with Strapi's message and writes nothing (create)", async () => {
      const before = await api.snapshot('people', 'passports');
      const res = await t.request('POST', '/api/people', { data: { name: 'ghost', passport: MISSING } });
      expectValidationError(res, `Document with id "${MISSING}", locale "null" not found`);
      expect(res.body.error.details.errors).toEqual([
        {
          path: ['passport'],
          message: `Document with id "${MISSING}", locale "null" not found`,
          name: 'ValidationError',
          value: MISSING,
        },
      ]);
      expect(await api.snapshot('people', 'passports')).toEqual(before);
    });

    it('refuses an unknown documentId among valid ones in every form, and writes nothing (update)', async () => {
      const b = await books(2);
      const [x] = await many('passports', 'number', 1);
      const [p] = await people(1, { favoriteBooks: [b[0]], passport: x });
      const before = await api.snapshot('people', 'books', 'passports');
      for (const data of [
        { name: 'changed', favoriteBooks: [b[1], MISSING] },
        { name: 'changed', favoriteBooks: { set: [MISSING] } },
        { name: 'changed', favoriteBooks: { connect: [b[1], { documentId: MISSING }] } },
        { name: 'changed', bestFriend: MISSING },
        { name: 'changed', passport: { connect: [MISSING] } },
        // a documentId of another content-type is not a book
        { name: 'changed', favoriteBooks: { connect: [p] } },
      ]) {
        const res = await api.put('people', p, data);
        expectValidationError(res, /^Document with id "[^"]+", locale "null" not found$/);
      }
      expect(await api.snapshot('people', 'books', 'passports')).toEqual(before);
    });

    it('refuses unknown documentIds written through an inverse side, and writes nothing', async () => {
      const [l] = await many('libraries', 'name', 1);
      const [b] = await books(1);
      await api.update('books', b, { library: l });
      const [team] = await many('teams', 'name', 1);
      const [player] = await many('players', 'name', 1);
      const before = await api.snapshot('libraries', 'books', 'teams', 'players');
      expectValidationError(
        await api.put('libraries', l, { books: { connect: [MISSING] } }),
        `Document with id "${MISSING}", locale "null" not found`,
      );
      expectValidationError(await api.put('libraries', l, { name: 'changed', books: [MISSING] }));
      expectValidationError(await api.put('players', player, { team: MISSING }));
      expectValidationError(await api.put('teams', team, { players: [player, MISSING] }));
      expect(await api.snapshot('libraries', 'books', 'teams', 'players')).toEqual(before);
    });

    it('names every bad relation in details.errors', async () => {
      const res = await t.request('POST', '/api/people', {
        data: { name: 'ghost', passport: MISSING, bestFriend: 'nobodyatall0000000000000' },
      });
      expectValidationError(res, '2 errors occurred');
      expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([
        ['passport'],
        ['bestFriend'],
      ]);
    });

    it('refuses values of the wrong type, and writes nothing', async () => {
      const [b] = await books(1);
      const [p] = await people(1, { favoriteBooks: [b] });
      const before = await api.snapshot('people');
      const bad: Doc[] = [
        { passport: 5 },
        { passport: true },
        { passport: '' },
        { passport: { id: 3 } },
        { passport: { documentId: 5 } },
        { favoriteBooks: [5] },
        { favoriteBooks: [b, 7] },
        { favoriteBooks: [{ id: 1 }] },
        { favoriteBooks: [[b]] },
        { favoriteBooks: { connect: [{ id: 3 }] } },
        { favoriteBooks: { connect: [{ documentId: { documentId: b } }] } },
        { favoriteBooks: { connect: [[b]] } },
        { favoriteBooks: { connect: 42 } },
        { favoriteBooks: { disconnect: [{ nested: { junk: true } }] } },
        { favoriteBooks: { add: [b] } },
        { favoriteBooks: 'has spaces in it' },
        { bestFriend: { documentId: 'a/b' } },
      ];
      for (const data of bad) {
        const res = await api.put('people', p, { name: 'changed', ...data });
        expectValidationError(res);
        expect(res.body.error.details.errors[0].path, JSON.stringify(data)).toEqual([Object.keys(data)[0]]);
      }
      expect(await api.snapshot('people')).toEqual(before);
    });

    it('refuses set combined with connect or disconnect, and the same item connected twice', async () => {
      const b = await books(2);
      const [p] = await people(1, { favoriteBooks: [b[0]] });
      const before = await api.snapshot('people');
      for (const favoriteBooks of [
        { set: [b[1]], connect: [b[0]] },
        { set: [b[1]], disconnect: [b[0]] },
        { set: [], connect: [] },
        { connect: [b[1], b[1]] },
        { connect: [b[1], { documentId: b[1], position: { start: true } }] },
      ]) {
        expectValidationError(await api.put('people', p, { favoriteBooks }));
      }
      // the same on a to-one relation and on an inverse side
      const [x] = await many('passports', 'number', 1);
      expectValidationError(await api.put('people', p, { passport: { connect: [x, x] } }));
      expectValidationError(await api.put('passports', x, { holder: { set: [p], connect: [p] } }));
      expect(await api.snapshot('people')).toEqual(before);
    });
  });

  describe('deleting a target', () => {
    it('removes it from to-many owners: stored arrays and populate', async () => {
      const b = await books(3);
      const [p] = await people(1, { favoriteBooks: [b[0], b[1], b[2]] });
      await api.remove('books', b[1]);
      expect((await api.stored('people', p)).favoriteBooks).toEqual([b[0], b[2]]);
      expect(ids((await api.read('people', p, '?populate=favoriteBooks')).favoriteBooks)).toEqual([b[0], b[2]]);

      const [c1, c2] = await many('courses', 'title', 2);
      const [s] = await many('students', 'name', 1);
      await api.update('students', s, { courses: [c1, c2] });
      await api.remove('courses', c1);
      expect((await api.stored('students', s)).courses).toEqual([c2]);

      const [a, bb] = await many('players', 'name', 2);
      const team = (await api.create('teams', { name: uniq('team'), players: [a, bb] })).documentId;
      await api.remove('players', a);
      expect((await api.stored('teams', team)).players).toEqual([bb]);
      expect(ids((await api.read('teams', team, '?populate=players')).players)).toEqual([bb]);
    });

    it('clears it from to-one owners, on both kinds of to-one', async () => {
      const [x] = await many('passports', 'number', 1);
      const [f] = await people(1);
      const [p] = await people(1, { passport: x, bestFriend: f });
      await api.remove('passports', x);
      await api.remove('people', f);
      expect(await api.stored('people', p)).toMatchObject({ passport: null, bestFriend: null });
      const read = await api.read('people', p, '?populate[0]=passport&populate[1]=bestFriend');
      expect(read.passport).toBeNull();
      expect(read.bestFriend).toBeNull();

      const [l] = await many('libraries', 'name', 1);
      const [bk] = await books(1);
      await api.update('books', bk, { library: l });
      await api.remove('libraries', l);
      expect((await api.stored('books', bk)).library).toBeNull();
      expect((await api.read('books', bk, '?populate=library')).library).toBeNull();
    });

    it('drops deleted owners from inverse sides', async () => {
      const [l] = await many('libraries', 'name', 1);
      const [b1, b2] = await books(2);
      await api.update('libraries', l, { books: [b1, b2] });
      await api.remove('books', b1);
      expect(ids((await api.read('libraries', l, '?populate=books')).books)).toEqual([b2]);
    });

    it('no longer populates it inside components and dynamic zones', async () => {
      const [b1, b2] = await books(2);
      const [p] = await people(1, {
        card: { label: 'c', book: b1 },
        sections: [{ __component: 'parts.shelf', label: 's', books: [b1, b2] }],
      });
      await api.remove('books', b1);
      const read = await api.read('people', p, '?populate[card][populate][0]=book&populate[sections][populate]=*');
      expect(read.card.book).toBeNull();
      expect(ids(read.sections[0].books)).toEqual([b2]);
    });
  });

  describe('relations in components and dynamic zones', () => {
    it('stores documentIds inside the component instances and populates them with nested populate', async () => {
      const [b1, b2, b3] = await books(3);
      const p = await api.create('people', {
        name: uniq('person'),
        card: { label: 'card', book: b1 },
        sections: [
          { __component: 'parts.shelf', label: 'top', books: [b3, b1] },
          { __component: 'parts.note', text: 'hello' },
          { __component: 'parts.shelf', label: 'bottom', books: { connect: [b2] } },
        ],
      });
      const data = await api.stored('people', p.documentId);
      expect(data.card).toMatchObject({ label: 'card', book: b1 });
      expect(data.sections.map((s: Doc) => s.books)).toEqual([[b3, b1], undefined, [b2]]);

      const plain = await api.read('people', p.documentId, '?populate[0]=card&populate[1]=sections');
      expect(plain.card).not.toHaveProperty('book');
      expect(plain.sections[0]).not.toHaveProperty('books');
      const book = (id: string) => api.read('books', id);

      const nested = await api.read('people', p.documentId, '?populate[card][populate][0]=book');
      expect(nested.card).toEqual({ ...plain.card, book: await book(b1) });
      const dotted = await api.read('people', p.documentId, '?populate[0]=card.book');
      expect(dotted.card).toEqual(nested.card);

      const expectedSections = [
        { ...plain.sections[0], books: [await book(b3), await book(b1)] },
        plain.sections[1],
        { ...plain.sections[2], books: [await book(b2)] },
      ];
      const shared = await api.read('people', p.documentId, '?populate[sections][populate]=*');
      expect(shared.sections).toEqual(expectedSections);
      const detailed = await api.read(
        'people',
        p.documentId,
        '?populate[sections][on][parts.shelf][populate][0]=books&populate[sections][on][parts.note][populate]=*',
      );
      expect(detailed.sections).toEqual(expectedSections);
    });

    it('applies connect inside a component instance kept by its id to the relations it already holds', async () => {
      const [b1, b2, b3] = await books(3);
      const p = await api.create('people', {
        name: uniq('person'),
        sections: [{ __component: 'parts.shelf', label: 'kept', books: [b1, b2] }],
      });
      const shelf = (await api.read('people', p.documentId, '?populate[0]=sections')).sections[0];
      await api.update('people', p.documentId, {
        sections: [
          {
            __component: 'parts.shelf',
            id: shelf.id,
            label: 'kept',
            books: { connect: [{ documentId: b3, position: { after: b1 } }], disconnect: [b2] },
          },
          // a new instance has nothing to connect to but what it names
          { __component: 'parts.shelf', label: 'new', books: { connect: [b2] } },
        ],
      });
      const data = await api.stored('people', p.documentId);
      expect(data.sections.map((s: Doc) => [s.id === shelf.id, s.books])).toEqual([
        [true, [b1, b3]],
        [false, [b2]],
      ]);
    });

    it('does not populate relations inside components with populate=* (one level)', async () => {
      const [b1] = await books(1);
      const p = await api.create('people', {
        name: uniq('person'),
        card: { label: 'x', book: b1 },
        sections: [{ __component: 'parts.shelf', books: [b1] }],
      });
      const read = await api.read('people', p.documentId, '?populate=*');
      expect(read.card).toMatchObject({ label: 'x' });
      expect(read.card).not.toHaveProperty('book');
      expect(read.sections).toHaveLength(1);
      expect(read.sections[0]).toMatchObject({ __component: 'parts.shelf' });
      expect(read.sections[0]).not.toHaveProperty('books');
      expect(read.favoriteBooks).toEqual([]);
    });

    it('replaces the component relation on update and refuses unknown ids inside components', async () => {
      const [b1, b2] = await books(2);
      const p = (await api.create('people', { name: uniq('person'), card: { label: 'x', book: b1 } })).documentId;
      await api.update('people', p, { card: { label: 'y', book: b2 } });
      expect((await api.stored('people', p)).card).toMatchObject({ label: 'y', book: b2 });
      const before = await api.snapshot('people');
      const res = await api.put('people', p, { card: { label: 'z', book: MISSING } });
      expectValidationError(res, `Document with id "${MISSING}", locale "null" not found`);
      expect(res.body.error.details.errors[0].path).toEqual(['card', 'book']);
      const dz = await api.put('people', p, {
        sections: [{ __component: 'parts.note' }, { __component: 'parts.shelf', books: [b1, MISSING] }],
      });
      expectValidationError(dz, `Document with id "${MISSING}", locale "null" not found`);
      expect(dz.body.error.details.errors[0].path).toEqual(['sections', '1', 'books']);
      expectValidationError(await api.put('people', p, { card: { label: 'z', book: 12 } }));
      expect(await api.snapshot('people')).toEqual(before);
    });
  });

  describe('statement count', () => {
    /** Statements one GET costs. */
    async function cost(url: string): Promise<{ statements: number; body: Doc }> {
      t.queries.length = 0;
      const res = await t.request('GET', url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { statements: t.queries.length, body: res.body };
    }

    it('populating relations for 25 documents costs the same statements as for 2', async () => {
      const firstTeam = (await t.request('GET', '/api/teams?pagination[limit]=1')).body.meta.pagination.total as number;
      const firstPerson = (await t.request('GET', '/api/people?pagination[limit]=1')).body.meta.pagination
        .total as number;
      const firstLibrary = (await t.request('GET', '/api/libraries?pagination[limit]=1')).body.meta.pagination
        .total as number;
      const b = await books(3);
      const [x] = await many('passports', 'number', 1);
      for (let i = 0; i < 25; i++) {
        const players = await many('players', 'name', 2);
        await api.create('teams', { name: uniq('team'), players });
        await api.create('people', {
          name: uniq('person'),
          favoriteBooks: [b[i % 3], b[(i + 1) % 3]],
          passport: i === 0 ? x : null,
          card: { label: 'c', book: b[i % 3] },
          sections: [
            { __component: 'parts.shelf', books: [b[2]] },
            { __component: 'parts.note', text: 'n' },
          ],
        });
        await api.create('libraries', { name: uniq('library'), books: [(await books(1))[0]] });
      }

      const urls: Array<[string, number, (doc: Doc) => void]> = [
        ['/api/teams?populate=players', firstTeam, (d) => expect(d.players).toHaveLength(2)],
        [
          '/api/teams?populate[players][populate][0]=team',
          firstTeam,
          (d) => expect(d.players[1].team.documentId).toBe(d.documentId),
        ],
        ['/api/libraries?populate=books', firstLibrary, (d) => expect(d.books).toHaveLength(1)],
        [
          '/api/people?populate[favoriteBooks]=true&populate[passport]=true&populate[card][populate][0]=book' +
            '&populate[sections][populate]=*',
          firstPerson,
          (d) => {
            expect(d.favoriteBooks).toHaveLength(2);
            expect(d.card.book.documentId).toEqual(expect.any(String));
            expect(d.sections[0].books).toHaveLength(1);
          },
        ],
      ];
      for (const [url, start, check] of urls) {
        const two = await cost(`${url}&pagination[start]=${start}&pagination[limit]=2`);
        const many25 = await cost(`${url}&pagination[start]=${start}&pagination[limit]=25`);
        expect(two.body.data).toHaveLength(2);
        expect(many25.body.data).toHaveLength(25);
        many25.body.data.forEach(check);
        expect(many25.statements, url).toBe(two.statements);
        expect(two.statements, url).toBeGreaterThan(0);
      }
    });
  });
});

describe('relations (blog example: article.author, article.tags and their inverse sides)', () => {
  let t: TestApp;
  const api = client(() => t);
  beforeAll(async () => {
    t = await startApp({ appDir: BLOG });
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  const uniq = (prefix: string): string => `${prefix}-${++counter}`;
  const authors = async (n: number): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await api.create('authors', { name: uniq('author') })).documentId);
    return out;
  };
  const tags = async (n: number): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await api.create('tags', { name: uniq('tag') })).documentId);
    return out;
  };
  const articles = async (n: number, data: Doc = {}): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push((await api.create('articles', { title: uniq('article'), ...data })).documentId);
    return out;
  };

  it('populates author and tags of an article with full documents, private fields stripped', async () => {
    const [a] = await authors(1);
    const [t1, t2] = await tags(2);
    const article = await api.create(
      'articles',
      { title: 'Hello', internalNotes: 'secret', author: a, tags: [t2, t1] },
      '?populate[0]=author&populate[1]=tags',
    );
    expect(article.author).toEqual(await api.read('authors', a));
    expect(article.tags).toEqual([await api.read('tags', t2), await api.read('tags', t1)]);
    expect(article).not.toHaveProperty('internalNotes');
    expect(await api.stored('articles', article.documentId)).toMatchObject({ author: a, tags: [t2, t1] });

    const star = await api.read('articles', article.documentId, '?populate=*');
    expect(star).toMatchObject({
      author: article.author,
      tags: article.tags,
      cover: null,
      gallery: [],
      seo: null,
      blocks: [],
    });
    const plainArticle = await api.read('articles', article.documentId);
    expect((await api.read('authors', a, '?populate=articles')).articles).toEqual([plainArticle]);
    expect((await api.read('tags', t1, '?populate=articles')).articles).toEqual([plainArticle]);
  });

  it('writes author.articles from the author side and takes articles from their previous author', async () => {
    const [a1, a2] = await authors(2);
    const [x1, x2, x3] = await articles(3);
    await api.update('articles', x1, { author: a1 });

    const res = await api.update('authors', a2, { articles: [x1, x2] }, '?populate=articles');
    expect(ids(res.articles)).toEqual([x1, x2]);
    expect((await api.stored('articles', x1)).author).toBe(a2);
    expect((await api.stored('articles', x2)).author).toBe(a2);
    expect((await api.read('authors', a1, '?populate=articles')).articles).toEqual([]);

    await api.update('authors', a2, { articles: { connect: [x3] } });
    expect((await api.stored('articles', x3)).author).toBe(a2);
    await api.update('authors', a2, { articles: { disconnect: [x1] } });
    expect((await api.stored('articles', x1)).author).toBeNull();
    expect(ids((await api.read('authors', a2, '?populate=articles')).articles)).toEqual([x2, x3]);

    await api.update('authors', a1, { articles: { connect: [x2] } });
    expect((await api.stored('articles', x2)).author).toBe(a1);
    expect(ids((await api.read('authors', a2, '?populate=articles')).articles)).toEqual([x3]);
  });

  it('writes tag.articles from the tag side, appending the tag to each article', async () => {
    const [t1, t2, t3] = await tags(3);
    const [x1, x2] = await articles(2, {});
    await api.update('articles', x1, { tags: [t1, t2] });
    await api.update('tags', t3, { articles: { connect: [x1, x2] } });
    expect((await api.stored('articles', x1)).tags).toEqual([t1, t2, t3]);
    expect((await api.stored('articles', x2)).tags).toEqual([t3]);
    await api.update('tags', t1, { articles: { disconnect: [x1] } });
    expect((await api.stored('articles', x1)).tags).toEqual([t2, t3]);
    expect(ids((await api.read('tags', t3, '?populate=articles')).articles)).toEqual([x1, x2]);
    await api.update('tags', t3, { articles: [x2] });
    expect((await api.stored('articles', x1)).tags).toEqual([t2]);
  });

  it('removes a deleted tag from the articles and a deleted author from its articles', async () => {
    const [a] = await authors(1);
    const [t1, t2] = await tags(2);
    const [x] = await articles(1, { author: a, tags: [t1, t2] });
    await api.remove('tags', t1);
    await api.remove('authors', a);
    expect(await api.stored('articles', x)).toMatchObject({ author: null, tags: [t2] });
    const read = await api.read('articles', x, '?populate[0]=author&populate[1]=tags');
    expect(read.author).toBeNull();
    expect(ids(read.tags)).toEqual([t2]);
  });

  it('refuses an unknown author and writes nothing', async () => {
    const before = await api.snapshot('articles', 'authors');
    const res = await t.request('POST', '/api/articles', { data: { title: 'nope', author: MISSING } });
    expectValidationError(res, `Document with id "${MISSING}", locale "null" not found`);
    expect(await api.snapshot('articles', 'authors')).toEqual(before);
  });

  it('populates a relation inside a dynamic zone component (shared.quote.person)', async () => {
    const [a] = await authors(1);
    const [x] = await articles(1, {
      blocks: [
        { __component: 'shared.quote', title: 'q', person: a },
        { __component: 'shared.rich-text', body: 'b' },
      ],
    });
    expect((await api.stored('articles', x)).blocks[0].person).toBe(a);
    const read = await api.read('articles', x, '?populate[blocks][on][shared.quote][populate][0]=person');
    expect(read.blocks).toHaveLength(1);
    expect(read.blocks[0].person).toEqual(await api.read('authors', a));
  });
});
