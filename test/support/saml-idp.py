"""A real SAML 2.0 identity provider for the e2e suite: Debian's pysaml2 (python3-pysaml2, with
xmlsec1), run by /usr/bin/python3 on a free port of 127.0.0.1.

Configuration comes as JSON in the SAML_IDP_CONFIG environment variable:
  {"port": 0, "key_file": ..., "cert_file": ..., "sp_metadata_file": ...,
   "users": {"<username>": {"password": ..., "name_id": ..., "attributes": {...}}}}
It prints one JSON line {"base_url": ..., "entity_id": ...} once it serves, then:
  GET  /metadata       the IdP's metadata (what a tenant administrator uploads)
  GET  /sso/redirect   the AuthnRequest (HTTP-Redirect binding): a sign-in form
  POST /sso/login      the form: the user signed in, a signed Response posted back (HTTP-POST binding)
Assertions are signed with RSA-SHA256 (sign_assertion), the Response is not.
"""

import html
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import saml2
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import NAMEID_FORMAT_PERSISTENT, NameID
from saml2.server import Server
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

CONFIG = json.loads(os.environ["SAML_IDP_CONFIG"])


def idp_config(base_url):
    config = IdPConfig()
    config.load(
        {
            "entityid": f"{base_url}/metadata",
            "xmlsec_binary": "/usr/bin/xmlsec1",
            "key_file": CONFIG["key_file"],
            "cert_file": CONFIG["cert_file"],
            "metadata": {"local": [CONFIG["sp_metadata_file"]]},
            "service": {
                "idp": {
                    "endpoints": {
                        "single_sign_on_service": [(f"{base_url}/sso/redirect", BINDING_HTTP_REDIRECT)],
                    },
                    "name_id_format": [NAMEID_FORMAT_PERSISTENT],
                    "policy": {"default": {"lifetime": {"minutes": 5}, "name_form": saml2.saml.NAME_FORMAT_URI}},
                    "want_authn_requests_signed": False,
                },
            },
        }
    )
    return config


class Handler(BaseHTTPRequestHandler):
    server_version = "pysaml2-test-idp"

    def log_message(self, format, *args):  # quiet: the suite reads stdout
        pass

    def send(self, status, body, content_type="text/html; charset=utf-8"):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/metadata":
            self.send(200, create_metadata_string(None, config=self.server.idp.config).decode("utf-8"), "application/samlmetadata+xml")
            return
        if url.path == "/sso/redirect":
            query = parse_qs(url.query)
            saml_request = query.get("SAMLRequest", [""])[0]
            relay_state = query.get("RelayState", [""])[0]
            try:
                self.server.idp.parse_authn_request(saml_request, BINDING_HTTP_REDIRECT)
            except Exception as error:  # a request we cannot read: no form
                self.send(400, f"<p>bad AuthnRequest: {html.escape(type(error).__name__)}</p>")
                return
            self.send(
                200,
                "<!doctype html><title>Test IdP</title><form method=post action=/sso/login>"
                f"<input type=hidden name=SAMLRequest value=\"{html.escape(saml_request)}\">"
                f"<input type=hidden name=RelayState value=\"{html.escape(relay_state)}\">"
                "<label>Username <input name=username></label>"
                "<label>Password <input name=password type=password></label>"
                "<button type=submit>Sign in</button></form>",
            )
            return
        self.send(404, "not found")

    def do_POST(self):
        if urlparse(self.path).path != "/sso/login":
            self.send(404, "not found")
            return
        length = int(self.headers.get("Content-Length", "0"))
        form = parse_qs(self.rfile.read(length).decode("utf-8"))
        field = lambda name: form.get(name, [""])[0]
        user = CONFIG["users"].get(field("username"))
        if user is None or user["password"] != field("password"):
            self.send(401, "<p>wrong username or password</p>")
            return
        idp = self.server.idp
        request = idp.parse_authn_request(field("SAMLRequest"), BINDING_HTTP_REDIRECT)
        response_args = idp.response_args(request.message, [BINDING_HTTP_POST])
        response = idp.create_authn_response(
            identity=user["attributes"],
            userid=user["name_id"],
            name_id=NameID(format=NAMEID_FORMAT_PERSISTENT, text=user["name_id"]),
            authn={"class_ref": saml2.saml.AUTHN_PASSWORD_PROTECTED},
            sign_assertion=True,
            sign_response=False,
            sign_alg=SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA256,
            **response_args,
        )
        http_args = idp.apply_binding(
            BINDING_HTTP_POST, str(response), response_args["destination"], field("RelayState"), response=True
        )
        self.send(200, http_args["data"])


def main():
    httpd = ThreadingHTTPServer(("127.0.0.1", CONFIG.get("port", 0)), Handler)
    base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.idp = Server(config=idp_config(base_url))
    print(json.dumps({"base_url": base_url, "entity_id": f"{base_url}/metadata"}), flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
