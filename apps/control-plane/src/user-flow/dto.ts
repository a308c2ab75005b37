import type { ConsentPrompt, CreatedSession, User } from '@platform/domain';

export function toUserResponse(user: User) {
  return { id: user.id, email: user.email, name: user.name, tenant: user.tenant, roles: user.roles };
}

export function toSessionResponse(created: CreatedSession) {
  return {
    session: created.session,
    expires_at: created.expiresAt.toISOString(),
    user: toUserResponse(created.user),
  };
}

export function toConsentPromptResponse(prompt: ConsentPrompt) {
  return {
    client_id: prompt.client.clientId,
    client_name: prompt.client.name,
    redirect_uri: prompt.redirectUri,
    scopes: prompt.scopes,
    ...(prompt.hintedSubject !== undefined && { hinted_subject: prompt.hintedSubject }),
  };
}
