import { OAuthError } from '../errors';
import { basicAuthorization, thrownBy } from '../testing/in-memory-stores';
import { readClientCredentials } from './client-credentials';

const basicOf = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

function expectRefusal(fn: () => unknown, code: string): void {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(OAuthError);
  expect(error).toMatchObject({ code });
}

describe(readClientCredentials.name, () => {
  it('reads client_secret_post from the form', () => {
    expect(readClientCredentials({ client_id: 'worker', client_secret: 's3cret' }, undefined)).toEqual({
      clientId: 'worker',
      clientSecret: 's3cret',
      method: 'client_secret_post',
    });
  });

  it('reads client_secret_basic from the Authorization header', () => {
    expect(readClientCredentials({}, basicAuthorization('worker', 's3cret'))).toEqual({
      clientId: 'worker',
      clientSecret: 's3cret',
      method: 'client_secret_basic',
    });
  });

  it('form-decodes ":", "+" and "%" in the Basic client id and secret', () => {
    const header = basicAuthorization('team:worker+1', 'p:a+s%s w');
    expect(header).toBe(basicOf('team%3Aworker%2B1:p%3Aa%2Bs%25s+w'));
    expect(readClientCredentials({}, header)).toMatchObject({
      clientId: 'team:worker+1',
      clientSecret: 'p:a+s%s w',
    });
  });

  it('reads "+" inside Basic credentials as a space', () => {
    expect(readClientCredentials({}, basicOf('worker:a+b'))).toMatchObject({ clientSecret: 'a b' });
  });

  it('accepts the "basic" scheme name in any case', () => {
    const header = basicAuthorization('worker', 's3cret').replace('Basic', 'bAsIc');
    expect(readClientCredentials({}, header)).toMatchObject({
      clientId: 'worker',
      method: 'client_secret_basic',
    });
  });

  it('accepts a client_id in the form that matches the Basic one', () => {
    expect(
      readClientCredentials({ client_id: 'worker' }, basicAuthorization('worker', 's3cret')),
    ).toMatchObject({
      clientId: 'worker',
      method: 'client_secret_basic',
    });
  });

  it('refuses Basic and a form secret together as invalid_request', () => {
    expectRefusal(
      () =>
        readClientCredentials(
          { client_id: 'worker', client_secret: 's3cret' },
          basicAuthorization('worker', 's3cret'),
        ),
      'invalid_request',
    );
  });

  it('refuses a form client_id that differs from the Basic one as invalid_request', () => {
    expectRefusal(
      () => readClientCredentials({ client_id: 'other' }, basicAuthorization('worker', 's3cret')),
      'invalid_request',
    );
  });

  it('refuses malformed Basic credentials as invalid_client', () => {
    expectRefusal(() => readClientCredentials({}, basicOf('no-colon-here')), 'invalid_client');
    expectRefusal(() => readClientCredentials({}, basicOf(':secret-without-id')), 'invalid_client');
    expectRefusal(() => readClientCredentials({}, basicOf('worker:%E0%A4%A')), 'invalid_client');
    expectRefusal(() => readClientCredentials({}, 'Basic'), 'invalid_client');
    expectRefusal(() => readClientCredentials({}, 'Basic two parts'), 'invalid_client');
  });

  it('takes client_id alone as a public client (method none)', () => {
    expect(readClientCredentials({ client_id: 'spa-app' }, undefined)).toEqual({
      clientId: 'spa-app',
      clientSecret: undefined,
      method: 'none',
    });
  });

  it('ignores a non-Basic Authorization header and reads the form', () => {
    expect(readClientCredentials({ client_id: 'worker', client_secret: 's' }, 'Bearer abc')).toMatchObject({
      method: 'client_secret_post',
    });
  });

  it('refuses a request with no client_id at all as invalid_client', () => {
    expectRefusal(() => readClientCredentials({}, undefined), 'invalid_client');
    expectRefusal(() => readClientCredentials({ client_secret: 'orphan' }, undefined), 'invalid_client');
  });
});
