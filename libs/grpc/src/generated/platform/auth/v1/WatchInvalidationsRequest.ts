// Original file: proto/platform/auth/v1/auth.proto


export interface WatchInvalidationsRequest {
}

export interface WatchInvalidationsRequest__Output {
}
