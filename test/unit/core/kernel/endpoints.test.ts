import { describe, expect, it } from 'vitest';
import { createEndpoints } from '../../../../core/kernel/endpoints.ts';

describe('createEndpoints', () => {
  it('lists the APIs first, then the rest, each in the order added', () => {
    const endpoints = createEndpoints();
    endpoints.add({ name: 'Media library', path: '/api/upload/files' });
    endpoints.add({ name: 'REST API', path: '/api', api: true });
    endpoints.add({ name: 'Health', path: '/_health' });
    endpoints.add({ name: 'GraphQL playground', path: '/graphql', api: true });
    expect(endpoints.list().map((e) => e.name)).toEqual(['REST API', 'GraphQL playground', 'Media library', 'Health']);
  });

  it('hands out copies: a caller changing what it got changes nothing', () => {
    const endpoints = createEndpoints();
    const entry = { name: 'REST API', path: '/api' };
    endpoints.add(entry);
    entry.path = '/elsewhere';
    endpoints.list().pop();
    expect(endpoints.list()).toEqual([{ name: 'REST API', path: '/api' }]);
  });
});
