import { SignJWT, jwtVerify } from 'jose';

export interface JwtService {
  issue(payload: { id: number }): Promise<string>;
  /** the payload of a valid, unexpired token signed with our secret; null otherwise */
  verify(token: string): Promise<{ id: number } | null>;
}

/** Users' JWTs: HS256, payload `{id}`, as Strapi's users-permissions issues them. */
export function createJwtService(secret: string, expiresIn: string | number): JwtService {
  const key = new TextEncoder().encode(secret);
  // jose takes "30d"-style spans or absolute seconds; Strapi's config also allows a number of seconds
  const exp = typeof expiresIn === 'number' ? `${expiresIn}s` : expiresIn;
  return {
    issue: ({ id }) =>
      new SignJWT({ id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        return typeof payload.id === 'number' && Number.isSafeInteger(payload.id) ? { id: payload.id } : null;
      } catch {
        return null;
      }
    },
  };
}
