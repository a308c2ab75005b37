import { OAuthError } from './errors';
import { parseOAuthForm } from './form';
import { thrownBy } from './testing/in-memory-stores';

describe(parseOAuthForm.name, () => {
  it('decodes form-urlencoded parameters, "+" as a space', () => {
    expect(
      parseOAuthForm('grant_type=client_credentials&scope=jobs.read+files.read&client_id=a%2Bb'),
    ).toEqual({
      grant_type: 'client_credentials',
      scope: 'jobs.read files.read',
      client_id: 'a+b',
    });
  });

  it('refuses a repeated parameter as invalid_request', () => {
    const error = thrownBy(() => parseOAuthForm('scope=jobs.read&client_id=a&scope=files.read'));
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'invalid_request' });
  });

  it('refuses a repeated parameter even when one of the values is empty', () => {
    expect(thrownBy(() => parseOAuthForm('scope=&scope=jobs.read'))).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('treats an empty value as an absent parameter', () => {
    expect(parseOAuthForm('grant_type=client_credentials&scope=&client_secret=')).toEqual({
      grant_type: 'client_credentials',
    });
  });

  it('gives no parameters for an empty body', () => {
    expect(parseOAuthForm('')).toEqual({});
  });
});
