import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeParameterName,
  type AuthorizeParameters,
} from '../clients/authorization.client';

/** An authorization request as the browser brought it: its parameters, and those sent twice. */
export interface AuthorizationRequest {
  parameters: AuthorizeParameters;
  /** RFC 6749 3.1: parameters MUST NOT be included more than once. */
  repeated: AuthorizeParameterName[];
}

/** The authorization parameters of a query string or form; everything else is ignored. */
export function readAuthorizationRequest(fields: URLSearchParams): AuthorizationRequest {
  const parameters: AuthorizeParameters = {};
  const repeated: AuthorizeParameterName[] = [];
  for (const name of AUTHORIZE_PARAMETERS) {
    const values = fields.getAll(name);
    if (values.length > 0) parameters[name] = values[0];
    if (values.length > 1) repeated.push(name);
  }
  return { parameters, repeated };
}

/** The query string of a request URL (`/path?query`), as fields. */
export function queryOf(url: string): URLSearchParams {
  const index = url.indexOf('?');
  return new URLSearchParams(index === -1 ? '' : url.slice(index + 1));
}

/** `/oauth/authorize?...` for these parameters: where login and sign-out come back to. */
export function authorizePath(parameters: AuthorizeParameters): string {
  const query = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMETERS) {
    const value = parameters[name];
    if (value !== undefined) query.set(name, value);
  }
  return `/oauth/authorize?${query.toString()}`;
}
