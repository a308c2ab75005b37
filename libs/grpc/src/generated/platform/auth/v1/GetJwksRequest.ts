// Original file: proto/platform/auth/v1/auth.proto


export interface GetJwksRequest {
}

export interface GetJwksRequest__Output {
}
