// Original file: proto/platform/auth/v1/auth.proto


export interface SyncRevocationsRequest {
}

export interface SyncRevocationsRequest__Output {
}
