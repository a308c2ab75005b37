import { CORRELATION_HEADER, correlationId, endClientSpan, startClientSpan } from '@platform/telemetry';
import { type Dispatcher, Pool } from 'undici';
import { INTERNAL_TOKEN_HEADER } from './internal-token';

export type ControlPlaneRequest = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & {
  /** Absolute path of the control plane's route (`/internal/v1/...`), query included. */
  path: string;
  headers?: Record<string, string>;
};

/**
 * The control plane as the backend and the sidecars reach it: one keep-alive undici pool under
 * its base URL, and every request carries the internal token and the correlation id of the
 * request it serves. What an answer means is each caller's to decide.
 */
export class ControlPlaneConnection {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly internalToken: string,
    poolOptions: Pool.Options,
  ) {
    const url = new URL(baseUrl);
    this.pool = new Pool(url.origin, { keepAliveTimeout: 30_000, ...poolOptions });
    this.basePath = url.pathname.replace(/\/$/, '');
  }

  request({ path, headers = {}, ...options }: ControlPlaneRequest): Promise<Dispatcher.ResponseData> {
    const id = correlationId();
    const traced = startClientSpan(options.method, path);
    const answer = this.pool.request({
      ...options,
      path: this.basePath + path,
      headers: {
        ...headers,
        [INTERNAL_TOKEN_HEADER]: this.internalToken,
        ...(id !== undefined && { [CORRELATION_HEADER]: id }),
        ...traced?.headers,
      },
    });
    return traced === undefined ? answer : endWhenAnswered(answer, traced.span);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

/** Ends the span of a request to the control plane when its answer (or its failure) arrives. */
async function endWhenAnswered(
  answer: Promise<Dispatcher.ResponseData>,
  span: Parameters<typeof endClientSpan>[0],
): Promise<Dispatcher.ResponseData> {
  try {
    const response = await answer;
    endClientSpan(span, response.statusCode);
    return response;
  } catch (error) {
    endClientSpan(span, undefined, error);
    throw error;
  }
}
