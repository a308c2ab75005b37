import { type RefreshedTokens, UserTokenSource, type UserTokens } from './user-token-source';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe(UserTokenSource.name, () => {
  it('forwards the access token it was given', async () => {
    const tokens = new UserTokenSource({
      accessToken: 'at-1',
      refresh: () => Promise.reject(new Error('no')),
    });
    expect(await tokens.getToken()).toBe('at-1');
  });

  it('refreshes once for 50 callers that saw the same token refused, and stores the rotated pair', async () => {
    const pending = deferred<RefreshedTokens>();
    const presented: string[] = [];
    const persisted: UserTokens[] = [];
    const tokens = new UserTokenSource({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      refresh: (refreshToken) => {
        presented.push(refreshToken);
        return pending.promise;
      },
      onTokens: (pair) => {
        persisted.push(pair);
      },
    });

    const renewals = Array.from({ length: 50 }, () => tokens.renew('at-1'));
    const meanwhile = tokens.getToken();
    pending.resolve({ access_token: 'at-2', refresh_token: 'rt-2', expires_in: 3600 });

    expect(new Set(await Promise.all(renewals))).toEqual(new Set(['at-2']));
    expect(await meanwhile).toBe('at-2');
    expect(presented).toEqual(['rt-1']);
    expect(tokens.current).toEqual({ accessToken: 'at-2', refreshToken: 'rt-2' });
    expect(persisted).toEqual([{ accessToken: 'at-2', refreshToken: 'rt-2', expiresIn: 3600 }]);
  });

  it('does not refresh again for a refused token that is already replaced', async () => {
    let refreshes = 0;
    const tokens = new UserTokenSource({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      refresh: async () => ({ access_token: `at-${++refreshes + 1}`, refresh_token: `rt-${refreshes + 1}` }),
    });
    expect(await tokens.renew('at-1')).toBe('at-2');
    expect(await tokens.renew('at-1')).toBe('at-2');
    expect(refreshes).toBe(1);
  });

  it('keeps the refresh token when the refresh answer carries none', async () => {
    const tokens = new UserTokenSource({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      refresh: async () => ({ access_token: 'at-2' }),
    });
    await tokens.renew('at-1');
    expect(tokens.current).toEqual({ accessToken: 'at-2', refreshToken: 'rt-1' });
  });

  it('answers undefined for a refused token when it holds no refresh token', async () => {
    const refresh = jest.fn();
    const tokens = new UserTokenSource({ accessToken: 'at-1', refresh });
    expect(await tokens.renew('at-1')).toBeUndefined();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('does not cache a failed refresh: the next renewal tries again with the same refresh token', async () => {
    const presented: string[] = [];
    let attempt = 0;
    const tokens = new UserTokenSource({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      refresh: async (refreshToken) => {
        presented.push(refreshToken);
        if (++attempt === 1) throw new Error('network down');
        return { access_token: 'at-2', refresh_token: 'rt-2' };
      },
    });
    await expect(tokens.renew('at-1')).rejects.toThrow('network down');
    expect(tokens.current).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1' });
    expect(await tokens.renew('at-1')).toBe('at-2');
    expect(presented).toEqual(['rt-1', 'rt-1']);
  });
});
