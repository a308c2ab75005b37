// Original file: proto/platform/auth/v1/auth.proto


export interface RevokeTokenResponse {
}

export interface RevokeTokenResponse__Output {
}
