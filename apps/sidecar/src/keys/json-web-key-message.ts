import type { JsonWebKeyMessage } from '@platform/grpc';
import type { JWK } from 'jose';

/** A trusted public key as the gRPC `JsonWebKey` carries it (GetJwks, WatchInvalidations). */
export function toJsonWebKeyMessage(jwk: JWK): JsonWebKeyMessage {
  return {
    kty: jwk.kty ?? '',
    use: jwk.use ?? '',
    alg: jwk.alg ?? '',
    kid: jwk.kid ?? '',
    n: jwk.n ?? '',
    e: jwk.e ?? '',
    crv: jwk.crv ?? '',
    x: jwk.x ?? '',
    y: jwk.y ?? '',
  };
}
