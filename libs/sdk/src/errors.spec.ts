import { errorFromResponse, OAuthProtocolError, PlatformError, ProblemError } from './errors';
import { basicAuthorization } from './oauth-client';

describe(errorFromResponse.name, () => {
  it('turns an RFC 6749 body into an OAuthProtocolError with the status, body and headers', async () => {
    const error = await errorFromResponse(
      new Response(
        JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed' }),
        {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="oauth"' },
        },
      ),
    );
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({
      status: 401,
      error: 'invalid_client',
      error_description: 'Client authentication failed',
      body: { error: 'invalid_client', error_description: 'Client authentication failed' },
      message: '401 invalid_client: Client authentication failed',
    });
    expect(error.wwwAuthenticate).toBe('Basic realm="oauth"');
  });

  it('turns an RFC 9457 body into a ProblemError, extension members included', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Token revoked',
      error: 'invalid_token',
    };
    const error = await errorFromResponse(
      new Response(JSON.stringify(problem), {
        status: 401,
        headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      }),
    );
    expect(error).toBeInstanceOf(ProblemError);
    const typed = error as ProblemError;
    expect(typed.problem).toEqual(problem);
    expect([typed.status, typed.type, typed.title, typed.detail]).toEqual([
      401,
      'about:blank',
      'Unauthorized',
      'Token revoked',
    ]);
    expect(typed.message).toBe('401 Unauthorized: Token revoked');
  });

  it('keeps a body that is neither as text on a plain PlatformError', async () => {
    const error = await errorFromResponse(
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(error).not.toBeInstanceOf(OAuthProtocolError);
    expect(error).not.toBeInstanceOf(ProblemError);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 502, body: '<html>Bad gateway</html>' });
    expect(error.message).toBe('502 Bad Gateway: <html>Bad gateway</html>');
  });

  it('answers an empty body with an empty string body', async () => {
    const error = await errorFromResponse(
      new Response(null, { status: 503, statusText: 'Service Unavailable' }),
    );
    expect(error).toMatchObject({ status: 503, body: '', message: '503 Service Unavailable' });
  });
});

describe(basicAuthorization.name, () => {
  it('form-urlencodes client id and secret before base64 (RFC 6749 section 2.3.1)', () => {
    const header = basicAuthorization('my app', 'p:ss/wörd');
    expect(atob(header.slice('Basic '.length))).toBe('my+app:p%3Ass%2Fw%C3%B6rd');
  });
});
