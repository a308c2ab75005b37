import type { FastifyReply } from 'fastify';
import type { UpstreamResponse } from '../clients/control-plane.client';

/** Sends a control-plane answer to the client: status, the relayed headers, the body bytes. */
export async function relay(reply: FastifyReply, response: UpstreamResponse): Promise<void> {
  void reply.status(response.status).headers(response.headers);
  await reply.send(response.body.length > 0 ? response.body : undefined);
}
