import { maskSecrets } from './masking';

describe('maskSecrets', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';

  it.each([
    [`token refused: ${jwt}`, 'token refused: [masked]'],
    ['authorization: Bearer abc.def-ghi', 'authorization: Bearer [masked]'],
    ['Authorization: Basic YWxpY2U6c2VjcmV0', 'Authorization: Basic [masked]'],
    ['refresh with plat_rt_Zm9vYmFyYmF6', 'refresh with plat_rt_[masked]'],
    ['signing with whsec_c2VjcmV0K2J5dGVz/w==', 'signing with whsec_[masked]'],
    [
      'grant_type=client_credentials&client_secret=s3cr3t&scope=a',
      'grant_type=client_credentials&client_secret=[masked]&scope=a',
    ],
    ['{"client_id":"app","client_secret":"s3cr3t"}', '{"client_id":"app","client_secret":"[masked]"}'],
    ['password: hunter2, user alice', 'password: [masked], user alice'],
    ['refresh_token=abc&code_verifier=xyz', 'refresh_token=[masked]&code_verifier=[masked]'],
  ])('masks %j', (line, expected) => {
    expect(maskSecrets(line)).toBe(expected);
  });

  it('leaves lines without secrets as they are', () => {
    const line = 'app svc-billing-1a2b3c registered in tenant acme (scopes: apps.read tokens.write)';
    expect(maskSecrets(line)).toBe(line);
  });
});
