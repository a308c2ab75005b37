"""RFC 8693 token exchange from a second language: Authlib's requests client, unmodified.

Run by python-authlib.e2e-spec.ts with Debian's /usr/bin/python3. Its inputs come from the
environment (the secret and the token never on the command line): TOKEN_URL, CLIENT_ID,
CLIENT_SECRET, AUTH_METHOD (client_secret_basic or client_secret_post), SUBJECT_TOKEN, AUDIENCE
and, optionally, SCOPE. Prints the token response as JSON and exits 0, or prints the OAuth
error as JSON and exits 1.
"""

import json
import os
import sys

from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"


def main() -> int:
    env = os.environ
    session = OAuth2Session(
        env["CLIENT_ID"],
        env["CLIENT_SECRET"],
        token_endpoint_auth_method=env["AUTH_METHOD"],
        scope=env.get("SCOPE"),
    )
    try:
        token = session.fetch_token(
            env["TOKEN_URL"],
            grant_type=TOKEN_EXCHANGE,
            subject_token=env["SUBJECT_TOKEN"],
            subject_token_type=ACCESS_TOKEN_TYPE,
            audience=env["AUDIENCE"],
        )
    except OAuthError as error:
        print(json.dumps({"error": error.error, "error_description": error.description}))
        return 1
    print(json.dumps(dict(token)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
