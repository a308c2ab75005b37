"""An OpenID Connect relying party in a second language: Authlib's requests client, unmodified.

Run by python-relying-party.e2e-spec.ts with Debian's /usr/bin/python3, in two steps (the test
plays the browser between them). Inputs come from the environment, the secret never on the
command line: ISSUER, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, and STEP:

- begin: discovers the provider, prints {"url", "state", "nonce", "verifier"} (code, PKCE S256,
  nonce) as JSON;
- finish: with CALLBACK (where the browser landed), STATE, NONCE and VERIFIER, exchanges the code
  (client_secret_basic), validates the ID token with Authlib's CodeIDToken (signature from the
  JWKS, iss, aud, exp, iat, nonce, at_hash), calls UserInfo and prints {"claims", "userinfo"}.

Exits 1 with the error as JSON when anything is refused.
"""

import json
import os
import sys

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.jose.errors import JoseError
from authlib.oidc.core import CodeIDToken

SCOPE = "openid profile email"


def session(env, metadata, state=None):
    return OAuth2Session(
        env["CLIENT_ID"],
        env["CLIENT_SECRET"],
        scope=SCOPE,
        redirect_uri=env["REDIRECT_URI"],
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
        state=state,
    )


def begin(env, metadata):
    verifier = generate_token(48)
    nonce = generate_token(20)
    url, state = session(env, metadata).create_authorization_url(
        metadata["authorization_endpoint"], nonce=nonce, code_verifier=verifier
    )
    return {"url": url, "state": state, "nonce": nonce, "verifier": verifier}


def finish(env, metadata):
    client = session(env, metadata, state=env["STATE"])
    token = client.fetch_token(
        metadata["token_endpoint"],
        authorization_response=env["CALLBACK"],
        code_verifier=env["VERIFIER"],
    )
    keys = JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=5).json())
    claims = jwt.decode(
        token["id_token"],
        keys,
        claims_cls=CodeIDToken,
        claims_options={
            "iss": {"essential": True, "value": metadata["issuer"]},
            "aud": {"essential": True, "value": env["CLIENT_ID"]},
        },
        claims_params={
            "nonce": env["NONCE"],
            "client_id": env["CLIENT_ID"],
            "access_token": token["access_token"],
        },
    )
    claims.validate(leeway=5)
    userinfo = client.get(metadata["userinfo_endpoint"], timeout=5)
    userinfo.raise_for_status()
    return {"claims": dict(claims), "userinfo": userinfo.json()}


def main() -> int:
    env = os.environ
    discovery = requests.get(env["ISSUER"] + "/.well-known/openid-configuration", timeout=5)
    discovery.raise_for_status()
    metadata = discovery.json()
    try:
        answer = begin(env, metadata) if env["STEP"] == "begin" else finish(env, metadata)
    except OAuthError as error:
        print(json.dumps({"error": error.error, "error_description": error.description}))
        return 1
    except (JoseError, requests.HTTPError) as error:
        print(json.dumps({"error": type(error).__name__, "error_description": str(error)}))
        return 1
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
