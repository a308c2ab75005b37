import { OAuthError, ScimError } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { unstorableTextRefusal } from './text-rule';

const NUL = '\u0000';

function request(
  url: string,
  parts: { params?: object; query?: object; body?: unknown; headers?: object; opaque?: string[] } = {},
): FastifyRequest {
  return {
    url,
    params: parts.params ?? {},
    query: parts.query ?? {},
    body: parts.body,
    headers: parts.headers ?? {},
    routeOptions: { config: { opaqueBodyMembers: parts.opaque } },
  } as unknown as FastifyRequest;
}
const form = (body: string, headers: object = {}) => ({
  body,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});
const basic = (clientId: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:s`).toString('base64')}`;

describe(unstorableTextRefusal.name, () => {
  it('passes a request whose text every database can hold', () => {
    expect(
      unstorableTextRefusal(request('/v1/oauth/token', form('client_id=app&scope=a%20b'))),
    ).toBeUndefined();
  });

  it('answers invalid_request at the OAuth endpoints, for the form and the Basic credentials', () => {
    for (const parts of [
      form('client_id=%00abc'),
      form('grant_type=x', { authorization: basic(`${NUL}abc`) }),
    ]) {
      const refusal = unstorableTextRefusal(request('/v1/oauth/introspect', parts));
      expect(refusal).toBeInstanceOf(OAuthError);
      expect(refusal).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('answers invalid_request on any route a client authenticates to', () => {
    const refusal = unstorableTextRefusal(request('/api/v1/auth/token', form('client_id=%00')), true);
    expect(refusal).toMatchObject({
      code: 'invalid_request',
      description: 'form parameter client_id holds a NUL character',
    });
  });

  it('answers invalidValue on the SCIM routes', () => {
    const refusal = unstorableTextRefusal(request('/scim/v2/Users', { body: { userName: 'a\ud800' } }));
    expect(refusal).toBeInstanceOf(ScimError);
    expect(refusal).toMatchObject({ scimType: 'invalidValue', message: 'userName holds a lone surrogate' });
  });

  it('answers validation_failed elsewhere, for path and query parameters', () => {
    expect(
      unstorableTextRefusal(request('/v1/oauth/apps/x', { params: { clientId: `x${NUL}` } })),
    ).toMatchObject({
      code: 'validation_failed',
      message: 'path parameter clientId holds a NUL character',
    });
    expect(unstorableTextRefusal(request('/v1/oauth/apps', { query: { after: NUL } }))).toMatchObject({
      message: 'query parameter after holds a NUL character',
    });
  });

  it('lets the members a route declares opaque hold a NUL', () => {
    const body = { value: `a${NUL}b`, cas: 0 };
    expect(
      unstorableTextRefusal(request('/api/v1/tenants/acme/secrets/x', { body, opaque: ['value'] })),
    ).toBeUndefined();
    expect(unstorableTextRefusal(request('/api/v1/tenants/acme/secrets/x', { body }))).toBeDefined();
  });

  it('leaves bodies of other media types and malformed Basic credentials to the route', () => {
    expect(
      unstorableTextRefusal(request('/v1/x', { body: NUL, headers: { 'content-type': 'text/plain' } })),
    ).toBeUndefined();
    expect(
      unstorableTextRefusal(request('/v1/oauth/token', { headers: { authorization: 'Basic %%%' } })),
    ).toBeUndefined();
  });
});
